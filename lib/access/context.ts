import type { Db, DbOrTx } from "@/db/client";
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
 * What every project-scoped verb takes first: `verb(ctx, ...input)`. One object instead of `(db, projectId)`
 * so the actor reaches the verb (audit, permission rules) and two string arguments cannot be swapped.
 * A helper that runs inside its caller's transaction takes `{ ...ctx, db: tx }`. `D` is `Db` for the few
 * verbs that open several transactions of their own and so cannot run inside a caller's.
 */
export interface ProjectContext<D extends DbOrTx = DbOrTx> {
  projectId: string;
  actor: Actor;
  db: D;
}

/** The context of the service acting on its own (worker jobs, CLI, scripts, tests): the system actor. */
export function systemContext<D extends DbOrTx>(db: D, projectId: string): ProjectContext<D> {
  return { projectId, actor: { kind: "system" }, db };
}
