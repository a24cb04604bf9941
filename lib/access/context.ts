import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "@/db/client";
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

/** Runs `fn` in a new transaction, or inside the caller's when `db` already is one. */
export function isTransaction(db: Tx): boolean {
  return db instanceof PgTransaction;
}

export async function withTransaction<T>(db: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return fn(db);
  return (db as Db).transaction((tx) => fn(tx));
}
