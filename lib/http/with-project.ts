import { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { touchKey } from "@/lib/access/api-keys";
import { findKeyCached } from "@/lib/access/key-cache";
import type { ProjectContext } from "@/lib/access/context";
import { can, PERMISSIONS, type Permission } from "@/lib/access/permissions";
import { resolveSessionActor } from "@/lib/access/session-actor";
import { Forbidden, NotFound, Unauthorized } from "./errors";
import { answerError, limitKey, limitSession } from "./budgets";
import { withHeaders } from "./rate-limit";
import { browserAnswer, checkOrigin } from "./cors";
import { observed } from "@/lib/observability/request";
import { logContext } from "@/lib/observability/log-context";
import { recordKeyRequest } from "@/lib/request-log/record-key-request";

/** The project segment is optional: the key-scoped mirrors (`/api/client/users`, `/v1/track`) have none. */
type RouteContext<P> = { params: Promise<Omit<P, "projectID"> & { projectID?: string }> };
type Handler<P> = (req: Request, ctx: ProjectContext<Db>, params: P) => Promise<Response>;

/**
 * The key in the Authorization header: `Bearer <key>`; a bare `rk_…` (what the Lunogram Python SDK sends);
 * or HTTP Basic with the key as user name (Segment's write-key convention). `undefined` when the header
 * is something else, so the caller can say how to send it.
 */
export function keyFromAuthorization(header: string): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const bare = /^\s*(rk_\S+)\s*$/.exec(header);
  if (bare) return bare[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,2048})\s*$/i.exec(header);
  if (basic) {
    const user = Buffer.from(basic[1]!, "base64").toString("utf8").split(":")[0]!;
    return user || undefined;
  }
  return undefined;
}

const uuid = z.uuid();

/**
 * The one authentication wrapper for project-scoped routes. It resolves the credential (an API key, or a
 * console session when `sessions` is on), applies the key's, the session's or (without a credential) the
 * caller address's rate limit, checks that the credential
 * belongs to the project in the path and holds `permission`, and maps every thrown error to problem+json.
 * Handlers hold no auth code. A route without a project segment takes the key's project (sessions need
 * the segment); its handler still receives `params.projectID`, filled with that project.
 */
export function withProject<P extends { projectID: string } = { projectID: string }>(
  permission: Permission,
  handler: Handler<P>,
  opts: {
    sessions?: boolean;
    /**
     * Set on the few write-only routes a browser key (one with `allowed_origins`) may call: what such a
     * key sees of a success answer (see `browserAnswer`). Every other route refuses browser keys.
     */
    browser?: (body: unknown) => unknown;
  } = {},
) {
  return observed(async (req: Request, route: RouteContext<P>): Promise<Response> => {
    let headers: Record<string, string> = {};
    const started = performance.now();
    let keyOwner: { projectId: string; keyId: string } | null = null;
    let res: Response | undefined;
    let failure: unknown;
    let browserKey = false;
    try {
      // A route without dynamic segments gets no params at all.
      const params = ((await route?.params) ?? {}) as Awaited<RouteContext<P>["params"]>;
      const projectID = params.projectID;
      const db = getDb();
      const authorization = req.headers.get("authorization");
      let ctx: ProjectContext<Db> | null = null;

      if (authorization) {
        const secret = keyFromAuthorization(authorization);
        const key = secret ? await findKeyCached({ db }, secret) : null;
        if (!key)
          throw new Unauthorized(
            secret
              ? "The API key is unknown or has been revoked."
              : "Send the API key as `Authorization: Bearer <key>`.",
          );
        keyOwner = { projectId: key.projectId, keyId: key.id };
        browserKey = key.allowedOrigins !== null;
        // First: a browser on an origin the key does not list is refused whatever the route or role, before
        // it spends anything; then the budget, a browser key's counted per caller address (limitKey).
        const cors = checkOrigin(req, key.allowedOrigins);
        headers = { ...(await limitKey(key, browserKey ? req : undefined)), ...cors };
        if (browserKey && !opts.browser) {
          throw new Forbidden(
            "This is a browser key (it has allowed_origins): it may only upsert users and send user events (POST /users, POST /users/events).",
          );
        }
        touchKey({ db }, key.id);
        // Same answer whether the other project exists or not: a key learns nothing outside its project.
        if (projectID !== undefined && (!uuid.safeParse(projectID).success || key.projectId !== projectID)) {
          throw new Forbidden("This API key is not valid for this project.");
        }
        ctx = {
          projectId: key.projectId,
          actor: { kind: "api_key", keyId: key.id, role: key.role, ...(browserKey ? { browser: true } : {}) },
          db,
        };
      } else if (opts.sessions && projectID !== undefined) {
        if (!uuid.safeParse(projectID).success) throw new NotFound("No such project.");
        const actor = await resolveSessionActor({ db }, { req, projectId: projectID });
        if (actor?.kind === "admin") headers = await limitSession(actor.adminId);
        if (actor) ctx = { projectId: projectID, actor, db };
      }

      if (!ctx) throw new Unauthorized("Authenticate with `Authorization: Bearer <API key>`.");
      if (ctx.actor.kind !== "system" && !can(ctx.actor.role, permission)) {
        throw new Forbidden(
          `This needs the ${PERMISSIONS[permission]} role or above; the credential has ${ctx.actor.role}.`,
        );
      }
      res = withHeaders(await handler(req, ctx, { ...params, projectID: ctx.projectId } as unknown as P), headers);
      return (res = browserKey ? await browserAnswer(res, opts.browser!) : res);
    } catch (err) {
      failure = err;
      res = await answerError(req, err, headers);
      return (res = browserKey ? await browserAnswer(res, opts.browser ?? (() => null)) : res);
    } finally {
      // Requests made with a key go to its request log (buffered; written off the request path).
      if (keyOwner && res)
        recordKeyRequest(req, keyOwner, res.status, performance.now() - started, logContext.getStore()?.reqId, failure);
    }
  });
}

type AdminHandler<P> = (req: Request, ctx: ProjectContext<Db>, params: P) => unknown;

/**
 * An admin route (`/api/admin/projects/{projectID}/…`): `withProject` with console sessions on, whose handler
 * returns what its verb returned. The answer is that result as JSON with `status` (200 unless given); 204
 * answers no content whatever the handler returned; a handler that builds its own `Response` (a status that
 * depends on the result) gets it sent as is.
 */
export function adminRoute<P extends { projectID: string } = { projectID: string }>(
  permission: Permission,
  handler: AdminHandler<P>,
): ReturnType<typeof withProject<P>>;
export function adminRoute<P extends { projectID: string } = { projectID: string }>(
  permission: Permission,
  opts: { status: 201 | 202 | 204 },
  handler: AdminHandler<P>,
): ReturnType<typeof withProject<P>>;
export function adminRoute<P extends { projectID: string }>(
  permission: Permission,
  ...args: [AdminHandler<P>] | [{ status: 201 | 202 | 204 }, AdminHandler<P>]
) {
  const [status, handler] = args.length === 1 ? [200, args[0]] : [args[0].status, args[1]];
  return withProject<P>(
    permission,
    async (req, ctx, params) => {
      const result = await handler(req, ctx, params);
      if (status === 204) return noContent();
      return result instanceof Response ? result : json(result, status);
    },
    { sessions: true },
  );
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}
