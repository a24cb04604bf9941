import { and, eq, sql } from "drizzle-orm";
import { lists, projects } from "@/db/schema";
import { Invalid } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";
import type { Rule } from "./rules";

/** The longest `within_days` of a rule's event conditions; 0 when none has a window. */
export function longestWindow(r: Rule): number {
  if ("all" in r) return Math.max(0, ...r.all.map(longestWindow));
  if ("any" in r) return Math.max(0, ...r.any.map(longestWindow));
  if ("event" in r) return r.event.within_days ?? 0;
  return 0;
}

/**
 * Refuses a rule that looks further back than the project keeps events: its answer would silently count
 * only what retention left. A condition without `within_days` reads every kept event, and is allowed.
 */
export async function checkWindowWithinRetention(ctx: ProjectContext, rule: Rule): Promise<void> {
  const window = longestWindow(rule);
  if (!window) return;
  const [p] = await ctx.db
    .select({ days: projects.eventRetentionDays })
    .from(projects)
    .where(eq(projects.id, ctx.projectId));
  if (p?.days != null && window > p.days)
    throw new Invalid(
      `This rule looks back ${window} days, but the project keeps events for ${p.days} days (event_retention_days): events older than that are deleted, so the rule could never see them. Use within_days of ${p.days} or less, or raise the project's retention.`,
    );
}

/** The dynamic lists whose rules look further back than `days`, for refusing a shorter retention. */
export async function listsBeyond(
  ctx: ProjectContext,
  days: number,
): Promise<{ id: string; name: string; window: number }[]> {
  const rows = await ctx.db
    .select({ id: lists.id, name: lists.name, rules: lists.rules })
    .from(lists)
    .where(and(eq(lists.projectId, ctx.projectId), eq(lists.kind, "dynamic"), sql`${lists.windowed}`));
  return rows
    .map((l) => ({ id: l.id, name: l.name, window: l.rules ? longestWindow(l.rules as Rule) : 0 }))
    .filter((l) => l.window > days);
}
