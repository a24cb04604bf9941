import { type SQL, sql } from "drizzle-orm";

/** Work a sender holds, per group (a destination, a project's messages): its project and how many. */
export type HeldCounts = Map<string, { projectId: string; n: number }>;

export interface ShareLimits {
  /** Work in flight in this process over every project (the process's budget). */
  maxInFlight: number;
  /** At most this many in flight for one group, whatever the budget. */
  perGroup: number;
  /**
   * Slots kept free for a project that has none yet: the projects share the rest. Unset: one project's
   * part (the budget split between the projects and one newcomer), which halves a lone project's budget.
   */
  keepFree?: number;
  /** A project's work is one group (messages): its part is not split again, nor a group's part kept free. */
  oneGroupPerProject?: boolean;
}

/**
 * The common table expressions of a fair claim, to follow `with` in a domain's claim statement:
 *
 * - `held(project_id, grp, n)`: what this process holds now, per group;
 * - `active(project_id, grp)`: `due` (the domain's groups with due work) and every group holding work;
 * - `shared(project_id, grp, share)`: each active group's part of the budget, split first between the
 *   projects (leaving `keepFree` slots, else one project's part, free for a newcomer), then between the
 *   groups of each project (leaving one group's part free), never below one and never above `perGroup`.
 *
 * So one project's slow or throttled work, however much, holds only its project's part: another
 * project's work always finds slots free. `grp` is text (a uuid or a project id written as text).
 */
export function fairShareCtes(held: HeldCounts, due: SQL, limits: ShareLimits): SQL {
  const json = JSON.stringify([...held].map(([g, h]) => ({ p: h.projectId, g, n: h.n })));
  return sql`held as (
      select h.p as project_id, h.g as grp, h.n from jsonb_to_recordset(${json}::jsonb) as h(p uuid, g text, n int)
    ), active as (
      select project_id, grp from (${due}) d
      union
      select project_id, grp from held
    ), shared as (
      select a.project_id, a.grp,
        least(${limits.perGroup}::int, greatest(1, ${projectPart(limits)}
            / ${limits.oneGroupPerProject ? sql`1` : sql`(count(*) over (partition by a.project_id) + 1)`}))::int as share
      from active a
    ), room as (
      select s.project_id, s.grp, s.share, greatest(s.share - coalesce(h.n, 0), 0) as k
      from shared s left join held h on h.grp = s.grp
    )`;
}

/** One project's part of the budget, over the projects in `active`. */
function projectPart(limits: ShareLimits): SQL {
  const projects = sql`(select count(distinct project_id) from active)`;
  return limits.keepFree === undefined
    ? sql`${limits.maxInFlight}::int / (${projects} + 1)`
    : sql`greatest(${limits.maxInFlight}::int - ${limits.keepFree}::int, 1) / ${projects}`;
}
