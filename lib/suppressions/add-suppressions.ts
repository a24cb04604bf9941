import { sql } from "drizzle-orm";
import type { SendChannel, SuppressionReason } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { normalAddress } from "./address";

export interface SuppressionEntry {
  channel: SendChannel;
  address: string;
  reason: SuppressionReason;
  source: string;
  messageId?: string | null;
}

/**
 * Adds addresses to the project's suppression list in one statement; an address already there keeps its
 * first reason and message (the report that caused it). Returns how many were new.
 */
export async function addSuppressions(ctx: ProjectContext, { entries }: { entries: SuppressionEntry[] }) {
  if (!entries.length) return { added: 0 };
  const rows = JSON.stringify(
    entries.map((e) => ({
      c: e.channel,
      a: normalAddress(e.channel, e.address),
      r: e.reason,
      s: e.source,
      m: e.messageId ?? null,
    })),
  );
  const added = await ctx.db.execute(sql`
    insert into suppressions (project_id, channel, address, reason, source, message_id)
    select distinct on (x.c, x.a) ${ctx.projectId}::uuid, x.c, x.a, x.r, x.s, x.m
    from jsonb_to_recordset(${rows}::jsonb) as x(c text, a text, r text, s text, m uuid)
    on conflict (project_id, channel, address) do nothing
    returning address`);
  return { added: added.length };
}
