import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { errorCode } from "@/lib/db/errors";
import { Unavailable } from "@/lib/http/errors";
import { checkWindowWithinRetention } from "./retention-window";
import { compileRule, type Rule } from "./rules";
import type { ListPreview } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** Budget of the exact count and of the sample query each (small projects); past it the answer is a 503. */
const EXACT_BUDGET_MS = 1200;
/**
 * Users the estimate evaluates the rule on. Each costs at most one index probe per event rule, so this
 * sets the estimate's price whatever the project's size: 5,000 give a standard error of at most 0.7
 * percentage points of the matching share.
 */
const SAMPLE_USERS = 5_000;
/**
 * The estimate's budget (LIST_PREVIEW_BUDGET_MS, default 1,700 ms): past it the preview answers 503. A
 * setting so a machine running much beside the server (a test suite, a batch) can give it more time.
 */
const estimateBudgetMs = () => Number(process.env.LIST_PREVIEW_BUDGET_MS ?? 1700);
/**
 * Projects with fewer users than this are counted exactly; larger ones are estimated from a sample and
 * never counted, so a preview's work is bounded by this many users either way (counting them is a capped
 * index-only read).
 */
const ESTIMATE_FROM_USERS = 20_000;
const QUERY_CANCELED = "57014";

type SampleRow = { id: string; email: string | null; external_id: string | null; created_at: string };

const sampleColumns = sql`u.id, u.email, to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  (select ui.external_id from user_identifiers ui where ui.project_id = u.project_id and ui.user_id = u.id order by ui.source = 'default' desc, ui.external_id limit 1) as external_id`;

/** Runs one read under a statement timeout; null when it ran out of time. */
async function within<T>(db: Db, ms: number, query: SQL): Promise<T[] | null> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('statement_timeout', ${String(ms)}, true)`);
      return [...(await tx.execute<T & Record<string, unknown>>(query))] as T[];
    });
  } catch (err) {
    if (errorCode(err) === QUERY_CANCELED) return null;
    throw err;
  }
}

const UNAVAILABLE =
  "The preview ran out of time: this rule reads too many events to count within 2 s. Narrow it (a shorter window, a rarer event), or save the list: its members are computed in the background.";

/**
 * How many users match `rule` now, and 20 of them, at a cost that does not grow with the project: the rule
 * compiles to the same SQL the pipeline uses (compileRule). A project with fewer than ESTIMATE_FROM_USERS
 * users (a capped count tells) is counted exactly. A larger one is estimated from a TABLESAMPLE SYSTEM of
 * about SAMPLE_USERS of its users: the rule evaluated on each, the matching share times the project's user
 * count as the same sample measures it (sampled users over the sampled fraction), marked `estimated`. So the
 * preview evaluates the rule on at most ESTIMATE_FROM_USERS users whatever the project's size, and its
 * price per user is index probes bounded by each event rule's `at_least`. Past its budget the answer is a
 * 503 that says so (the list can still be saved; its members are computed in the background).
 */
export async function previewList(ctx: ProjectContext<Db>, rule: Rule): Promise<ListPreview> {
  const { db, projectId } = ctx;
  await checkWindowWithinRetention(ctx, rule);
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const [{ n: capped }] = (await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from users where project_id = ${projectId}::uuid limit ${ESTIMATE_FROM_USERS}) x`,
  )) as unknown as [{ n: number }];
  if (capped < ESTIMATE_FROM_USERS) {
    const where = sql`u.project_id = ${projectId}::uuid and ${compileRule(rule, projectId)}`;
    const [exact, sample] = await Promise.all([
      within<{ n: number }>(db, EXACT_BUDGET_MS, sql`select count(*)::int as n from users u where ${where}`),
      within<SampleRow>(
        db,
        EXACT_BUDGET_MS,
        sql`select ${sampleColumns} from users u where ${where} order by u.created_at desc, u.id desc limit 20`,
      ),
    ]);
    if (!exact || !sample) throw new Unavailable(UNAVAILABLE);
    return { count: exact[0]!.n, estimated: false, sample, took_ms: took() };
  }
  const estimate = await estimateFromSample(db, projectId, rule);
  if (!estimate) throw new Unavailable(UNAVAILABLE);
  return { ...estimate, took_ms: took() };
}

/**
 * The estimate: a TABLESAMPLE SYSTEM of `users` sized from the planner's row estimate for the project so
 * that about SAMPLE_USERS of its users are read, then the rule in a WHERE (so PostgreSQL checks the cheap
 * property conditions before probing events). The project's user count is the sample's own measure
 * (sampled users / sampled fraction): no count of the project, which would grow with it.
 */
async function estimateFromSample(db: Db, projectId: string, rule: Rule): Promise<Omit<ListPreview, "took_ms"> | null> {
  const [plan] = (await db.execute<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
    sql`explain (format json) select 1 from users where project_id = ${projectId}::uuid`,
  )) as unknown as [{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }];
  const planned = Math.max(ESTIMATE_FROM_USERS, plan?.["QUERY PLAN"][0].Plan["Plan Rows"] ?? 0);
  const percent = Math.min(100, (SAMPLE_USERS / planned) * 100);
  const rows = await within<SampleRow & { sampled: number; hits: number }>(
    db,
    estimateBudgetMs(),
    sql`
    with s as materialized (
      select u.* from users u tablesample system (${percent}) repeatable (7) where u.project_id = ${projectId}::uuid
    ), h as materialized (
      select u.id, u.project_id, u.email, u.created_at from s u where ${compileRule(rule, projectId)}
    )
    select c.sampled, c.hits, x.* from
      (select (select count(*) from s)::int as sampled, (select count(*) from h)::int as hits) c
      left join lateral (select ${sampleColumns} from h u order by u.created_at desc, u.id desc limit 20) x on true`,
  );
  if (!rows) return null;
  const { sampled, hits } = rows[0]!;
  const total = sampled / (percent / 100);
  return {
    count: sampled ? Math.round((hits / sampled) * total) : 0,
    estimated: true,
    sample: rows
      .filter((r) => r.id)
      .map(({ id, email, external_id, created_at }) => ({ id, email, external_id, created_at })),
  };
}
