import { and, eq, sql } from "drizzle-orm";
import { uuidArray } from "@/lib/db/sql";
import { users, type User } from "@/db/schema";
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
  // One round trip: each user with its identifiers aggregated beside it.
  // One array parameter for the ids, not one bind per id (a batch answers a thousand).
  const rows = await tx
    .select({ user: users, identifiers: identifiersJson("user", sql`${users.id}`, sql`${users.projectId}`) })
    .from(users)
    .where(and(eq(users.projectId, projectId), sql`${users.id} = any(${uuidArray(ids)})`));
  const byId = new Map(rows.map((r) => [r.user.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toUserView(r.user, r.identifiers)] : [];
  });
}
