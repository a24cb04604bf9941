import { getDb, type Db } from "@/db/client";
import type { Admin } from "@/db/schema";
import { assertSameOriginWrite } from "@/lib/access/same-origin";
import { adminForRequest } from "@/lib/access/session-admin";
import { Unauthorized } from "./errors";
import { errorToResponse } from "./problem";
import { observed } from "@/lib/observability/request";

export interface SessionContext {
  admin: Admin;
  db: Db;
}

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (req: Request, ctx: SessionContext, params: P) => Promise<Response>;

/**
 * The wrapper for console routes that are not scoped to one project (my invites, my projects): a live
 * console session is required; every thrown error becomes problem+json.
 */
export function withSession<P = Record<string, never>>(handler: Handler<P>) {
  return observed(async (req: Request, route: RouteContext<P>): Promise<Response> => {
    try {
      const db = getDb();
      const admin = await adminForRequest(db, req);
      if (!admin) throw new Unauthorized("Sign in to the console first.");
      assertSameOriginWrite(req);
      return await handler(req, { admin, db }, await route.params);
    } catch (err) {
      return errorToResponse(err);
    }
  });
}
