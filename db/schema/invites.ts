import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { admins, projectRole } from "./console";
import { projectIdColumn } from "./project-column";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";

/**
 * Invitations to a project. They carry no token: accepting needs a session whose verified e-mail equals
 * `email`. State is derived: accepted_at / revoked_at set, else expired when expires_at has passed, else
 * pending. At most one open (neither accepted nor revoked) invitation per address and project.
 */
/** Where the invitation mail stands: waiting or retrying (`queued`), accepted by the SMTP server, or given up on. */
export const mailDelivery = pgEnum("mail_delivery", ["queued", "sent", "failed"]);

export const projectInvites = pgTable(
  "project_invites",
  {
    id: uuidV7().primaryKey(),
    projectId: projectIdColumn(),
    email: text().notNull(),
    role: projectRole().notNull(),
    invitedBy: uuid().references(() => admins.id, { onDelete: "set null" }),
    expiresAt: timestamptz().notNull(),
    acceptedAt: timestamptz(),
    acceptedBy: uuid().references(() => admins.id, { onDelete: "set null" }),
    revokedAt: timestamptz(),
    // The mail is a pg-boss job ("mail.invite") carrying delivery_id; a resend or re-invite issues a new id,
    // so a superseded job still retrying neither sends nor overwrites the state.
    deliveryId: uuid().notNull().defaultRandom(),
    delivery: mailDelivery().notNull().default("queued"),
    deliveryAttempts: integer().notNull().default(0),
    deliveryError: text(),
    deliveredAt: timestamptz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("project_invites_open_uq")
      .on(t.projectId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("project_invites_email_idx").on(sql`lower(${t.email})`),
  ],
);

export type ProjectInvite = typeof projectInvites.$inferSelect;
