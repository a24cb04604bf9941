import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { BroadcastState } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { isoTime } from "@/lib/db/iso-time";
import { queryRows } from "@/lib/db/sql";
import type { broadcastOutput } from "./schemas";

export type BroadcastView = z.infer<typeof broadcastOutput>;

interface Row {
  id: string;
  name: string;
  template_id: string;
  list_id: string;
  send_at: string;
  in_user_timezone: boolean;
  rate_per_second: number | null;
  goal: BroadcastView["goal"];
  variants: BroadcastView["variants"];
  test: BroadcastView["test"];
  state: BroadcastState;
  tags: string[];
  pinned: { template_version_id: string | null; snippets: Record<string, string> } | null;
  recipients: number | null;
  counts: Record<string, number> | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The project's broadcasts matching `where` (over `b`), newest first, each with its messages counted by state. */
export async function broadcastViews(ctx: ProjectContext, { where, limit }: { where: SQL; limit: number }) {
  const rows = await queryRows<Row>(
    ctx.db,
    sql`select b.*, (select json_object_agg(s.state, s.n) from (select m.state, count(*)::int as n from messages m
        where m.project_id = b.project_id and m.broadcast_id = b.id group by m.state) s) as counts,
      (select json_strip_nulls(json_build_object('event', g.event, 'condition', g.condition, 'within', g.within,
        'value_path', g.value_path)) from campaign_goals g
        where g.project_id = b.project_id and g.owner_kind = 'broadcast' and g.owner_id = b.id) as goal
    from broadcasts b where b.project_id = ${ctx.projectId}::uuid and ${where}
    order by b.id desc limit ${limit}`,
  );
  return rows.map(
    (r): BroadcastView => ({
      id: r.id,
      name: r.name,
      template_id: r.template_id,
      list_id: r.list_id,
      send_at: isoTime(r.send_at),
      in_user_timezone: r.in_user_timezone,
      rate_per_second: r.rate_per_second,
      goal: r.goal ?? null,
      variants: r.variants ?? null,
      test: r.test ?? null,
      state: r.state,
      tags: r.tags,
      pinned: r.pinned
        ? { template_version_id: r.pinned.template_version_id, snippets: r.pinned.snippets ?? {} }
        : null,
      counts: {
        recipients: r.recipients,
        queued: r.counts?.queued ?? 0,
        sent: r.counts?.sent ?? 0,
        skipped: r.counts?.skipped ?? 0,
        failed: r.counts?.failed ?? 0,
      },
      started_at: r.started_at ? isoTime(r.started_at) : null,
      finished_at: r.finished_at ? isoTime(r.finished_at) : null,
      created_at: isoTime(r.created_at),
      updated_at: isoTime(r.updated_at),
    }),
  );
}
