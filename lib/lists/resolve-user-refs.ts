import { sql } from "drizzle-orm";
import type { ListUsersInput } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** The user ids a static-list change names: given ids plus those found by identifier (unknown identifiers are dropped). */
export async function resolveUserRefs(ctx: ProjectContext, input: ListUsersInput): Promise<string[]> {
  const ids = new Set(input.user_ids ?? []);
  if (input.identifiers?.length) {
    const rows = await ctx.db.execute<{ user_id: string }>(sql`
      select ui.user_id from jsonb_to_recordset(${JSON.stringify(input.identifiers)}::jsonb) as x(source text, external_id text)
      -- One primary-key probe per identifier (OFFSET 0 keeps it a probe; as a join it scanned the project's identifiers).
      cross join lateral (
        select ui.user_id from user_identifiers ui
        where ui.project_id = ${ctx.projectId}::uuid and ui.source = x.source and ui.external_id = x.external_id offset 0) ui`);
    for (const r of rows) ids.add(r.user_id);
  }
  return [...ids];
}
