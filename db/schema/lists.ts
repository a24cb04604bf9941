import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";
import { belongsTo, projectIdColumn } from "./project-column";
import { users } from "./end-users";

/**
 * Lists of users. Dynamic lists hold a rule tree (lib/lists/rules.ts); `eventNames` are the event names
 * whose arrival re-evaluates the rule for the affected user (pipeline step 3). `windowed` lists are also
 * re-evaluated periodically so members leave when their events age out of the window.
 */
export const lists = pgTable(
  "lists",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    name: text().notNull(),
    kind: text().$type<"dynamic" | "static">().notNull(),
    rules: jsonb().$type<unknown>(),
    eventNames: text().array().notNull().default(sql`'{}'::text[]`),
    windowed: boolean().notNull().default(false),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), index("lists_event_names_gin").using("gin", t.eventNames)],
);

export const listMembers = pgTable(
  "list_members",
  {
    projectId: uuid().notNull(),
    listId: uuid().notNull(),
    userId: uuid().notNull(),
    addedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.listId, t.userId] }),
    index("list_members_user_idx").on(t.projectId, t.userId),
    // A list's members page, newest first: a keyset read of 25, not a sort of every member.
    index("list_members_added_idx").on(t.projectId, t.listId, t.addedAt, t.userId),
    belongsTo(t.projectId, t.listId, lists),
    belongsTo(t.projectId, t.userId, users),
  ],
);

export type List = typeof lists.$inferSelect;
export type ListMember = typeof listMembers.$inferSelect;
