import type { DbOrTx } from "@/db/client";
import type { Admin } from "@/db/schema";
import type { OrgRole, Role } from "./roles";

/** Who is acting: an API key, a signed-in admin, or the service itself (worker, CLI). */
export type Actor =
  | {
      kind: "api_key";
      keyId: string;
      role: Role /** A key with allowed_origins: write-only ingestion from web pages. */;
      browser?: boolean;
    }
  | { kind: "admin"; adminId: string; email: string; role: Role; orgRole?: OrgRole | null }
  | { kind: "system" };

/**
 * What a verb takes first when no project is known yet: sign-in lookups, signed token links, project
 * creation, and the jobs that sweep every project. Only the database, but in the same `(ctx, input)` shape
 * as the project-scoped verbs, so a caller learns one signature and a test can hand in its own handle.
 */
export interface AppContext<D extends DbOrTx = DbOrTx> {
  db: D;
}

/** A signed-in console admin acting outside any one project (their invitations, their projects). */
export interface AdminContext<D extends DbOrTx = DbOrTx> extends AppContext<D> {
  admin: Admin;
}

/**
 * What every project-scoped verb takes first: `verb(ctx, ...input)`. One object instead of `(db, projectId)`
 * so the actor reaches the verb (audit, permission rules) and two string arguments cannot be swapped.
 * A helper that runs inside its caller's transaction takes `{ ...ctx, db: tx }`. `D` is `Db` for the few
 * verbs that open several transactions of their own and so cannot run inside a caller's.
 */
export interface ProjectContext<D extends DbOrTx = DbOrTx> extends AppContext<D> {
  projectId: string;
  actor: Actor;
}

/** The context of the service acting on its own (worker jobs, CLI, scripts, tests): the system actor. */
export function systemContext<D extends DbOrTx>(db: D, projectId: string): ProjectContext<D> {
  return { projectId, actor: { kind: "system" }, db };
}
