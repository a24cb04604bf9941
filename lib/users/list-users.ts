import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { users } from "@/db/schema";
import { hasIdentifier } from "@/lib/identity/resolve";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { jsonFilter } from "@/lib/http/json-filter";
import { loadUserViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const listUsersQuery = paginationQuery
  .extend({
    source: z.string().max(1024).optional(),
    external_id: z.string().max(1024).optional(),
    email: z.string().max(320).optional(),
    data: jsonFilter.optional(),
  })
  .meta({ id: "ListUsersQuery" });

/** Newest first (UUIDv7 ids are time-ordered); filters combine with AND. */
export async function listUsers(ctx: ProjectContext, q: z.output<typeof listUsersQuery>) {
  const { db, projectId } = ctx;
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where: (SQL | undefined)[] = [eq(users.projectId, projectId)];
  if (after) where.push(lt(users.id, after[0]));
  if (q.email) where.push(sql`lower(${users.email}) = lower(${q.email})`);
  if (q.data) where.push(sql`${users.data} @> ${JSON.stringify(q.data)}::jsonb`);
  if (q.external_id !== undefined || q.source !== undefined) where.push(hasIdentifier(ctx, "user", users.id, q));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...where))
    .orderBy(desc(users.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return {
    data: await loadUserViews(
      ctx,
      data.map((r) => r.id),
    ),
    next_cursor,
  };
}
