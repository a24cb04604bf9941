import { sql, type SQL } from "drizzle-orm";

/**
 * Member counts are exact up to this many and otherwise "more than": counting a list of a million users
 * reads a million index entries, on every page that shows the list. The console shows "10,000+".
 */
export const MEMBER_COUNT_CAP = 10_000;

/** SQL: the members of list `listId` counted no further than MEMBER_COUNT_CAP + 1 (an index-only range). */
export function cappedMemberCount(projectId: string, listId: SQL): SQL {
  return sql`(select count(*)::int from (select 1 from list_members m where m.project_id = ${projectId}::uuid and m.list_id = ${listId} limit ${MEMBER_COUNT_CAP + 1}) capped)`;
}

/** The API's fields for a capped count: the count up to the cap, and whether there are more. */
export function memberCountView(counted: number): { member_count: number; member_count_capped: boolean } {
  return { member_count: Math.min(counted, MEMBER_COUNT_CAP), member_count_capped: counted > MEMBER_COUNT_CAP };
}
