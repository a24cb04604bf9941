import { Forbidden, NotFound } from "@/lib/http/errors";
import type { Actor, AppContext } from "./context";
import { projectRoleOf } from "./project-role";
import { assertSameOriginWrite } from "./same-origin";
import { adminForRequest } from "./session-admin";

/**
 * Console sessions as a credential for the admin API: session cookie -> admin -> role in the project
 * (roster role, or admin when the admin owns or administers the project's org). Null when there is no
 * live session (the caller answers 401); 404 for an unknown project; 403 for a signed-in admin without
 * a role in it.
 */
export async function resolveSessionActor(
  ctx: AppContext,
  { req, projectId }: { req: Request; projectId: string },
): Promise<Actor | null> {
  const admin = await adminForRequest(ctx, req);
  if (!admin) return null;
  assertSameOriginWrite(req);
  const access = await projectRoleOf(ctx, { adminId: admin.id, projectId });
  if (!access) throw new NotFound("No such project.");
  if (!access.role) throw new Forbidden("You are not a member of this project.");
  return { kind: "admin", adminId: admin.id, email: admin.email, role: access.role, orgRole: access.orgRole };
}
