import type { Db } from "@/db/client";
import type { OrgRole, Role } from "./roles";

/** Who is acting: an API key, a signed-in admin, or the service itself (worker, CLI). */
export type Actor =
  | { kind: "api_key"; keyId: string; role: Role }
  | { kind: "admin"; adminId: string; email: string; role: Role; orgRole?: OrgRole | null }
  | { kind: "system" };

export interface ProjectContext {
  projectId: string;
  actor: Actor;
  db: Db;
}

/** @deprecated Moved to `lib/db/transaction.ts`; this re-export goes in the verb-signature sweep. */
export { isTransaction, withTransaction } from "@/lib/db/transaction";
