import { integer, pgTable, primaryKey, text, uuid, index } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { admins } from "./console";

/*
 * next-auth's tables, mapped onto `admins` (never onto the end-user `users` table). Property names are the
 * ones @auth/drizzle-adapter expects (`userId` means the admin's id); columns are snake_case.
 */
export const adminAccounts = pgTable(
  "admin_accounts",
  {
    userId: uuid()
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    type: text().$type<"email" | "oauth" | "oidc" | "webauthn">().notNull(),
    provider: text().notNull(),
    providerAccountId: text().notNull(),
    refresh_token: text(),
    access_token: text(),
    expires_at: integer(),
    token_type: text(),
    scope: text(),
    id_token: text(),
    session_state: text(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index("admin_accounts_admin_idx").on(t.userId)],
);

export const adminSessions = pgTable(
  "admin_sessions",
  {
    sessionToken: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    expires: timestamptz().notNull(),
  },
  (t) => [index("admin_sessions_admin_idx").on(t.userId)],
);

/** Magic-link tokens (stored hashed by next-auth); `identifier` is the e-mail address. */
export const adminVerificationTokens = pgTable(
  "admin_verification_tokens",
  {
    identifier: text().notNull(),
    token: text().notNull(),
    expires: timestamptz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

export type AdminSession = typeof adminSessions.$inferSelect;
