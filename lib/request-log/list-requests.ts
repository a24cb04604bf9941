import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { decodeCursor, page } from "@/lib/http/pagination";
import type { RequestLogQuery } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

function statusFilter(status: string | undefined): SQL | undefined {
  if (!status) return undefined;
  if (status === "failed") return sql`r.status >= 400`;
  if (status.endsWith("xx")) {
    const lo = Number(status[0]) * 100;
    return sql`r.status between ${lo} and ${lo + 99}`;
  }
  return sql`r.status = ${Number(status)}`;
}

/** One logged request as the log lists it (`at` as UTC text with milliseconds). */
export type LoggedRequest = {
  id: string;
  key_id: string;
  key_name: string | null;
  key_prefix: string | null;
  at: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
  errors: { path: string; message: string }[] | null;
  body: string | null;
};

/** The project's logged API requests, newest first, by key and status. */
export async function listRequests(ctx: ProjectContext, q: RequestLogQuery) {
  const after = decodeCursor(q.cursor, z.tuple([z.iso.datetime(), z.uuid()]));
  const where: SQL[] = [sql`r.project_id = ${ctx.projectId}::uuid`];
  if (q.key_id) where.push(sql`r.key_id = ${q.key_id}::uuid`);
  const s = statusFilter(q.status);
  if (s) where.push(s);
  if (after) where.push(sql`(r.at, r.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`);
  const rows = await ctx.db.execute<LoggedRequest>(sql`
    select r.id, r.key_id, k.name as key_name, k.prefix as key_prefix, to_char(r.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
      r.method, r.path, r.status, r.duration_ms, r.request_id, r.errors, r.body
    from api_requests r left join api_keys k on k.id = r.key_id and k.project_id = r.project_id
    where ${sql.join(where, sql` and `)}
    order by r.at desc, r.id desc
    limit ${q.limit + 1}`);
  return page([...rows], q.limit, (r) => [r.at, r.id]);
}
