import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { users, type User } from "@/db/schema";
import { listIdentifiers, type StoredIdentifier } from "@/lib/identity/resolve";
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
export async function loadUserViews(tx: Tx, projectId: string, ids: string[]): Promise<UserView[]> {
  if (!ids.length) return [];
  const rows = await tx.select().from(users).where(and(eq(users.projectId, projectId), inArray(users.id, ids)));
  const identifiers = await listIdentifiers(tx, "user", projectId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const u = byId.get(id);
    return u ? [toUserView(u, identifiers.get(id) ?? [])] : [];
  });
}
