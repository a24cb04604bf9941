import { OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { PERMISSIONS, type Permission } from "@/lib/access/permissions";
import { COMMON_ERRORS } from "./responses";

export const jsonBody = (schema: z.ZodType, description?: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

export const projectParams = z.object({ projectID: z.uuid().meta({ description: "The project's UUID." }) });

export const listOf = (item: z.ZodType, id: string) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() }).meta({ id });

/** Each concept registers its paths into this one registry; `document.ts` imports them all. */
export const registry = new OpenAPIRegistry();
registry.registerComponent("securitySchemes", "apiKey", {
  type: "http",
  scheme: "bearer",
  description: "A project API key: `Authorization: Bearer rk_...`. Its role decides what it may do.",
});
registry.registerComponent("securitySchemes", "session", {
  type: "apiKey",
  in: "cookie",
  name: "authjs.session-token",
  description: "A console session (magic-link sign-in). Admin API routes accept it as well as an API key.",
});

const CLIENT_PREFIX = "/api/client/projects/{projectID}";

/**
 * Registers an authenticated operation. `permission` is the action the route's `withProject` checks; the
 * document carries it and its lowest role as `x-permission` / `x-required-role` (shown on /docs/api), and
 * `lib/openapi/routes-documented.test.ts` checks both against every route file.
 * A client path (`/api/client/projects/{projectID}/...`) is registered twice with the same schemas: once
 * with the project segment and once without (`/api/client/...`), where the API key's project is used; the
 * routes of both are the same handlers.
 */
export function registerPath({
  permission,
  keyPathNote,
  ...route
}: RouteConfig & { permission?: Permission /** Said only on the key-scoped copy. */; keyPathNote?: string }) {
  const access = permission ? { "x-permission": permission, "x-required-role": PERMISSIONS[permission] } : {};
  // Admin routes take a console session as well as a key (`adminRoute`: `withProject` with `sessions` on).
  const security: Record<string, string[]>[] = route.path.startsWith("/api/admin/")
    ? [{ apiKey: [] }, { session: [] }]
    : [{ apiKey: [] }];
  const full: RouteConfig = { security, ...route, ...access, responses: { ...COMMON_ERRORS, ...route.responses } };
  registry.registerPath(full);
  if (!route.path.startsWith(`${CLIENT_PREFIX}/`)) return;
  const params = route.request?.params;
  const rest =
    params && params !== projectParams && "omit" in params
      ? (params as typeof projectParams).omit({ projectID: true })
      : undefined;
  registry.registerPath({
    ...full,
    path: `/api/client${route.path.slice(CLIENT_PREFIX.length)}`,
    description: `${route.description ? `${route.description} ` : ""}The project is the API key's (same as \`${route.path}\`).${keyPathNote ? ` ${keyPathNote}` : ""}`,
    request: { ...route.request, params: rest && Object.keys(rest.shape).length ? rest : undefined },
  });
}
