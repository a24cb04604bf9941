import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt, uuidV7 } from "./columns";
import { belongsTo } from "./project-column";

/*
 * End users and their companies. Every table carries project_id and every key starts with it, so the
 * schema can be distributed by project (Citus) without a rewrite: primary keys are (project_id, id).
 */

/**
 * users, organizations and events carry no foreign key to projects: on the hot write paths it was a
 * check and a key-share lock of the project row for every row inserted. Projects are never deleted by
 * the product; a statement-level trigger still deletes a deleted project's records and events
 * (db/migrations/0021_project_records_without_fk.sql).
 */
export const users = pgTable(
  "users",
  {
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    email: text(),
    phone: text(),
    timezone: text(),
    locale: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("users_data_gin").using("gin", sql`${t.data} jsonb_path_ops`),
    index("users_email_idx").on(t.projectId, sql`lower(${t.email})`),
    // Inbound SMS (STOP/START) finds users by their phone.
    index("users_phone_idx").on(t.projectId, t.phone).where(sql`${t.phone} is not null`),
  ],
);

export const userIdentifiers = pgTable(
  "user_identifiers",
  {
    projectId: uuid().notNull(),
    source: text().notNull(),
    externalId: text().notNull(),
    userId: uuid().notNull(),
    metadata: jsonb().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.source, t.externalId] }),
    index("user_identifiers_user_idx").on(t.projectId, t.userId),
    // No foreign key to users (db/migrations/0022_identifiers_without_fk.sql): a trigger deletes a deleted
    // user's identifiers, and every writer holds the record it attaches a pair to (lib/identity/upsert-records.ts).
  ],
);

export const organizations = pgTable(
  "organizations",
  {
    // No foreign key to projects: see users.
    projectId: uuid().notNull(),
    id: uuidV7().notNull(),
    name: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index("organizations_data_gin").using("gin", sql`${t.data} jsonb_path_ops`),
  ],
);

export const organizationIdentifiers = pgTable(
  "organization_identifiers",
  {
    projectId: uuid().notNull(),
    source: text().notNull(),
    externalId: text().notNull(),
    organizationId: uuid().notNull(),
    metadata: jsonb().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.source, t.externalId] }),
    index("organization_identifiers_org_idx").on(t.projectId, t.organizationId),
    // No foreign key to organizations: see userIdentifiers.
  ],
);

/** Membership data lives here, apart from user and organization data. */
export const organizationMembers = pgTable(
  "organization_members",
  {
    projectId: uuid().notNull(),
    organizationId: uuid().notNull(),
    userId: uuid().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.organizationId, t.userId] }),
    index("organization_members_user_idx").on(t.projectId, t.userId),
    belongsTo(t.projectId, t.organizationId, organizations),
    belongsTo(t.projectId, t.userId, users),
  ],
);

export type User = typeof users.$inferSelect;
export type Organization = typeof organizations.$inferSelect;
export type UserIdentifier = typeof userIdentifiers.$inferSelect;
export type OrganizationIdentifier = typeof organizationIdentifiers.$inferSelect;
export type OrganizationMember = typeof organizationMembers.$inferSelect;
