import { z } from "zod";
import { getDb } from "@/db/client";
import { findKeyBySecret, touchKey } from "@/lib/access/api-keys";
import type { ProjectContext } from "@/lib/access/context";
import { can, PERMISSIONS, type Permission } from "@/lib/access/permissions";
import { resolveSessionActor } from "@/lib/access/session-actor";
import { Forbidden, NotFound, Unauthorized } from "./errors";
import { errorToResponse } from "./problem";
import { answerError, limitKey, limitSession } from "./budgets";
import { withHeaders } from "./rate-limit";
import { observed } from "@/lib/observability/request";

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (req: Request, ctx: ProjectContext, params: P) => Promise<Response>;

const uuid = z.uuid();

/**
 * The one authentication wrapper for project-scoped routes. It resolves the credential (an API key, or a
 * console session when `sessions` is on), applies the key's, the session's or (without a credential) the
 * caller address's rate limit, checks that the credential
 * belongs to the project in the path and holds `permission`, and maps every thrown error to problem+json.
 * Handlers hold no auth code.
 */
export function withProject<P extends { projectID: string }>(
  permission: Permission,
  handler: Handler<P>,
  opts: { sessions?: boolean } = {},
) {
  return observed(async (req: Request, route: RouteContext<P>): Promise<Response> => {
    let headers: Record<string, string> = {};
    try {
      const params = await route.params;
      const db = getDb();
      const authorization = req.headers.get("authorization");
      let ctx: ProjectContext | null = null;

      if (authorization) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
        const key = match ? await findKeyBySecret(db, match[1]!) : null;
        if (!key) throw new Unauthorized(match ? "The API key is unknown or has been revoked." : "Send the API key as `Authorization: Bearer <key>`.");
        headers = await limitKey(key);
        touchKey(db, key.id);
        // Same answer whether the other project exists or not: a key learns nothing outside its project.
        if (!uuid.safeParse(params.projectID).success || key.projectId !== params.projectID) {
          throw new Forbidden("This API key is not valid for this project.");
        }
        ctx = { projectId: key.projectId, actor: { kind: "api_key", keyId: key.id, role: key.role }, db };
      } else if (opts.sessions) {
        if (!uuid.safeParse(params.projectID).success) throw new NotFound("No such project.");
        const actor = await resolveSessionActor(db, req, params.projectID);
        if (actor?.kind === "admin") headers = await limitSession(actor.adminId);
        if (actor) ctx = { projectId: params.projectID, actor, db };
      }

      if (!ctx) throw new Unauthorized("Authenticate with `Authorization: Bearer <API key>`.");
      if (ctx.actor.kind !== "system" && !can(ctx.actor.role, permission)) {
        throw new Forbidden(`This needs the ${PERMISSIONS[permission]} role or above; the credential has ${ctx.actor.role}.`);
      }
      return withHeaders(await handler(req, ctx, params), headers);
    } catch (err) {
      return answerError(req, err, headers);
    }
  });
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}
