import { sql } from "drizzle-orm";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import type { User } from "@/db/schema";
import { KINDS } from "@/lib/identity/tables";
import { identifiersJson, type StoredIdentifier } from "@/lib/identity/resolve";
import type { RecordRow } from "@/lib/identity/upsert-one";
import type { UserView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export function toUserView(u: User, identifier: StoredIdentifier[]): UserView {
  return {
    id: u.id,
    identifier,
    email: u.email,
    phone: u.phone,
    timezone: u.timezone,
    locale: u.locale,
    data: u.data,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
  };
}

/** The view of a row as lib/identity/upsert-one.ts returns it (snake_case, timestamps as text). */
export function userViewFromRow(r: RecordRow, identifier: StoredIdentifier[]): UserView {
  const text = (c: string) => (r[c] as string | null | undefined) ?? null;
  const user = { id: r.id, email: text("email"), phone: text("phone"), timezone: text("timezone"), locale: text("locale"), data: r.data };
  return toUserView({ ...user, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at) } as User, identifier);
}

/** Loads users with their identifiers, in the order of `ids`. */
export async function loadUserViews(ctx: ProjectContext, ids: string[]): Promise<UserView[]> {
  const { db: tx, projectId } = ctx;
  if (!ids.length) return [];
  // One round trip: each record with its identifiers aggregated beside it, one key probe per id
  // (rowsById: `id = any(...)` read the whole project when the statistics were stale).
  const rows = await queryRows<RecordRow & { identifiers: StoredIdentifier[] }>(tx, sql`
    select r.*, ${identifiersJson("user", sql`r.id`, sql`r.project_id`)} as identifiers
    from ${rowsById(KINDS.user.sql.records, projectId, uuidArray([...new Set(ids)]), "r")}`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [userViewFromRow(r, r.identifiers)] : [];
  });
}
