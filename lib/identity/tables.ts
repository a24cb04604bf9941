import { organizationIdentifiers, organizations, userIdentifiers, users } from "@/db/schema";

/**
 * The two identified populations share their identity rules; these name the tables each one uses, as
 * drizzle objects (for typed queries) and as SQL names (for the set-based statements of lib/identity),
 * with the profile columns an upsert may set (null clears) beside `data`.
 */
export const KINDS = {
  user: {
    records: users,
    identifiers: userIdentifiers,
    idColumn: userIdentifiers.userId,
    label: "user",
    sql: { records: "users", identifiers: "user_identifiers", idColumn: "user_id" },
    columns: ["email", "phone", "timezone", "locale"],
  },
  organization: {
    records: organizations,
    identifiers: organizationIdentifiers,
    idColumn: organizationIdentifiers.organizationId,
    label: "organization",
    sql: { records: "organizations", identifiers: "organization_identifiers", idColumn: "organization_id" },
    columns: ["name"],
  },
} as const;

export type Kind = keyof typeof KINDS;
