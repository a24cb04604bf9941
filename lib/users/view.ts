import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { users, type User } from "@/db/schema";
import { identifiersJson, type StoredIdentifier } from "@/lib/identity/resolve";
import type { UserView } from "./schemas";

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

/** Loads users with their identifiers, in the order of `ids`. */
export async function loadUserViews(tx: DbOrTx, projectId: string, ids: string[]): Promise<UserView[]> {
  if (!ids.length) return [];
  // One round trip: each user with its identifiers aggregated beside it.
  const rows = await tx
    .select({ user: users, identifiers: identifiersJson("user", sql`${users.id}`, sql`${users.projectId}`) })
    .from(users)
    .where(and(eq(users.projectId, projectId), inArray(users.id, ids)));
  const byId = new Map(rows.map((r) => [r.user.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toUserView(r.user, r.identifiers)] : [];
  });
}
