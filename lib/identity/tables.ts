import { organizationIdentifiers, organizations, userIdentifiers, users } from "@/db/schema";

/** The two identified populations share their identity rules; these name the tables each one uses. */
export const KINDS = {
  user: { records: users, identifiers: userIdentifiers, idColumn: userIdentifiers.userId, label: "user" },
  organization: {
    records: organizations,
    identifiers: organizationIdentifiers,
    idColumn: organizationIdentifiers.organizationId,
    label: "organization",
  },
} as const;

export type Kind = keyof typeof KINDS;
