import type { User } from "@/db/schema";
import { loadRecords } from "@/lib/identity/load-records";
import type { StoredIdentifier } from "@/lib/identity/resolve";
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
  return (await loadRecords(ctx, "user", ids)).map((r) => userViewFromRow(r.row, r.identifier));
}
