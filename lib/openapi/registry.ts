import { OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

export const problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details. `errors[].path` points into the request body." });

const problemContent = { "application/problem+json": { schema: problem } };

/** The error answers every authenticated endpoint can give, with what they mean here. */
export const COMMON_ERRORS = {
  400: { description: "Malformed JSON or an invalid body; `errors` lists each bad field's path.", content: problemContent },
  401: { description: "Missing, unknown or revoked API key.", content: problemContent },
  403: { description: "The key belongs to another project or its role is too low.", content: problemContent },
  413: { description: "Body over 1 MiB.", content: problemContent },
  415: { description: "Body not sent as `application/json`.", content: problemContent },
  429: { description: "Rate limited; retry after `Retry-After` seconds.", content: problemContent },
  503: { description: "Database unavailable; retry.", content: problemContent },
} as const;

export const errorResponse = (description: string) => ({ description, content: problemContent });

export const jsonBody = (schema: z.ZodType, description?: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

export const jsonResponse = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

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

export function registerPath(route: RouteConfig) {
  registry.registerPath({ security: [{ apiKey: [] }], ...route, responses: { ...COMMON_ERRORS, ...route.responses } });
}
