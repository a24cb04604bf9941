import { sql, type SQL } from "drizzle-orm";
import { uuidArray } from "@/lib/db/sql";
import { uuidv7s } from "@/lib/db/uuidv7";
import { anniversarySql, assignAnniversaries } from "@/lib/schedules/anniversary";
import type { Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Work that must happen in the transaction that creates users or organizations: their built-in
 * `anniversary` assignment. Every creation goes through lib/identity/upsert-records.ts, whose insert of
 * the records carries these hooks in the same statement (onCreatedSql); when they could not complete
 * there (a project's first creation: the anniversary schedule does not exist yet), it calls
 * onRecordsCreated for the records once.
 */
export async function onRecordsCreated(
  ctx: ProjectContext,
  input: { kind: Kind; records: { id: string; createdAt: Date }[] },
): Promise<void> {
  await assignAnniversaries(ctx, input);
}

/**
 * The creation hooks as a WITH list continuing the statement that inserts `count` records: `created` is
 * a query giving each new record's (ord, id, created_at), ord numbering them 0..count-1. `complete` is
 * a boolean expression, false when onRecordsCreated must still run for them; `ready`, an expression
 * that reads none of the WITH list, is true when `complete` will be. The assignments' ids are drawn here
 * (lib/db/uuidv7.ts) and matched to the records by ord.
 */
export function onCreatedSql(
  ctx: ProjectContext,
  input: { kind: Kind; created: SQL; count: number; now?: Date },
): { ctes: SQL; complete: SQL; ready: SQL } {
  const { kind, created, count, now = new Date() } = input;
  const subjects = sql`select a.assignment_id, c.id, c.created_at
    from (${created}) c join unnest(${uuidArray(uuidv7s(count))}) with ordinality as a(assignment_id, n) on a.n = c.ord + 1`;
  const anniversary = anniversarySql(ctx, kind, subjects, now);
  return { ctes: anniversary.ctes, complete: anniversary.found, ready: anniversary.ready };
}
