import { getDb, type Db } from "@/db/client";
import type { AdminContext } from "@/lib/access/context";
import { assertSameOriginWrite } from "@/lib/access/same-origin";
import { adminForRequest } from "@/lib/access/session-admin";
import { answerError, limitSession } from "./budgets";
import { Unauthorized } from "./errors";
import { withHeaders } from "./rate-limit";
import { observed } from "@/lib/observability/request";

/** A console session outside any one project: the signed-in admin and the database. */
export type SessionContext = AdminContext<Db>;

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (req: Request, ctx: SessionContext, params: P) => Promise<Response>;

/**
 * The wrapper for console routes that are not scoped to one project (my invites, my projects): a live
 * console session is required and counts against the session's rate limit (the caller address's without
 * one); every thrown error becomes problem+json.
 */
export function withSession<P = Record<string, never>>(handler: Handler<P>) {
  return observed(async (req: Request, route: RouteContext<P>): Promise<Response> => {
    let headers: Record<string, string> = {};
    try {
      const db = getDb();
      const admin = await adminForRequest({ db }, req);
      if (!admin) throw new Unauthorized("Sign in to the console first.");
      headers = await limitSession(admin.id);
      assertSameOriginWrite(req);
      return withHeaders(await handler(req, { admin, db }, await route.params), headers);
    } catch (err) {
      return answerError(req, err, headers);
    }
  });
}
