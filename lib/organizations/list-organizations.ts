import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { organizations } from "@/db/schema";
import { hasIdentifier } from "@/lib/identity/resolve";
import { jsonFilter } from "@/lib/http/json-filter";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { loadOrganizationViews } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const listOrganizationsQuery = paginationQuery
  .extend({
    source: z.string().max(1024).optional(),
    external_id: z.string().max(1024).optional(),
    name: z.string().max(1024).optional(),
    data: jsonFilter.optional(),
  })
  .meta({ id: "ListOrganizationsQuery" });

export async function listOrganizations(ctx: ProjectContext, q: z.output<typeof listOrganizationsQuery>) {
  const { db, projectId } = ctx;
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where: (SQL | undefined)[] = [eq(organizations.projectId, projectId)];
  if (after) where.push(lt(organizations.id, after[0]));
  if (q.name) where.push(sql`${organizations.name} ilike ${`%${q.name.replace(/[\\%_]/g, "\\$&")}%`}`);
  if (q.data) where.push(sql`${organizations.data} @> ${JSON.stringify(q.data)}::jsonb`);
  if (q.external_id !== undefined || q.source !== undefined)
    where.push(hasIdentifier(ctx, "organization", organizations.id, q));
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(...where))
    .orderBy(desc(organizations.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return {
    data: await loadOrganizationViews(
      ctx,
      data.map((r) => r.id),
    ),
    next_cursor,
  };
}
