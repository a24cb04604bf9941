import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { PROJECT_ROLES, type ProjectRole } from "../roles";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";

/** Project roles, lowest first (db/roles.ts holds the list so browser code can use it without drizzle). */
export const projectRole = pgEnum("project_role", PROJECT_ROLES);
export const adminOrgRole = pgEnum("admin_org_role", ["member", "admin", "owner"]);

/** People who sign in to the console. Never end users: those live in `users`. */
export const admins = pgTable(
  "admins",
  {
    id: uuidV7().primaryKey(),
    email: text().notNull(),
    name: text(),
    emailVerified: timestamptz(),
    image: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("admins_email_lower_uq").on(sql`lower(${t.email})`)],
);

/** The tenant that owns projects. */
export const adminOrgs = pgTable("admin_orgs", {
  id: uuidV7().primaryKey(),
  name: text().notNull(),
  createdAt: createdAt(),
});

export const adminOrgMembers = pgTable(
  "admin_org_members",
  {
    orgId: uuid()
      .notNull()
      .references(() => adminOrgs.id, { onDelete: "cascade" }),
    adminId: uuid()
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    role: adminOrgRole().notNull().default("member"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.adminId] }), index("admin_org_members_admin_idx").on(t.adminId)],
);

export const projects = pgTable(
  "projects",
  {
    id: uuidV7().primaryKey(),
    orgId: uuid()
      .notNull()
      .references(() => adminOrgs.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** Days events are kept (by their time: the client's timestamp, else receipt); null keeps them forever. */
    eventRetentionDays: integer(),
    /** The zone a journey's time of day falls back to when the user has none (or an invalid one). */
    timezone: text().notNull().default("UTC"),
    /** Per channel, at most `count` non-transactional messages per user within `per` (lib/messages/settings.ts). */
    frequencyCap: jsonb().$type<Record<string, { count: number; per: string }>>(),
    /** `{start, end}` wall-clock times ("21:00", "08:00") read in each user's time zone: messages wait till the end. */
    quietHours: jsonb().$type<{ start: string; end: string }>(),
    /** The layout around e-mail templates that name none (those of its format). */
    defaultLayoutId: uuid(),
    /** Bytes of documents (images) the project may hold; null: DOCUMENTS_QUOTA_BYTES (100 MB). */
    documentQuotaBytes: bigint({ mode: "number" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("projects_org_idx").on(t.orgId)],
);

/** The roster: one role per admin per project. Org owners/admins inherit admin and are not listed here. */
export const projectMembers = pgTable(
  "project_members",
  {
    projectId: uuid()
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    adminId: uuid()
      .notNull()
      .references(() => admins.id, { onDelete: "cascade" }),
    role: projectRole().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.adminId] }), index("project_members_admin_idx").on(t.adminId)],
);

/** API keys: only the SHA-256 of the secret is stored; `prefix` is the visible start of the secret. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuidV7().primaryKey(),
    projectId: uuid()
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text().notNull(),
    role: projectRole().notNull(),
    prefix: text().notNull(),
    secretHash: text().notNull(),
    createdBy: uuid().references(() => admins.id, { onDelete: "set null" }),
    /** Token bucket: sustained requests per second and burst size. */
    rateLimitPerSecond: integer().notNull().default(100),
    rateLimitBurst: integer().notNull().default(500),
    /**
     * Exact origins (`https://shop.example.com`) a browser may call with this key; null for a server key.
     * Set only on `client` keys: it makes the key a browser key, limited to write-only ingestion (see with-project).
     */
    allowedOrigins: text().array(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz(),
    revokedAt: timestamptz(),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_uq").on(t.secretHash), index("api_keys_project_idx").on(t.projectId)],
);

export type Admin = typeof admins.$inferSelect;
export type AdminOrg = typeof adminOrgs.$inferSelect;
export type Project = typeof projects.$inferSelect;
export type ProjectMember = typeof projectMembers.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type { ProjectRole };
export type AdminOrgRole = (typeof adminOrgRole.enumValues)[number];
