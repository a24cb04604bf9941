import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { errorCode } from "@/lib/db/errors";
import { Unavailable } from "@/lib/http/errors";
import { checkWindowWithinRetention } from "./retention-window";
import { compileRule, type Rule } from "./rules";
import type { ListPreview } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** Budget of the exact count and of the sample query each; past it the answer is estimated from a sample. */
const EXACT_BUDGET_MS = 1200;
/**
 * Users the estimate reads. Each costs one index probe per event rule, so this sets the estimate's price:
 * 5,000 keep it well under a second on a loaded machine, for a standard error of at most 0.7 percentage
 * points of the matching share.
 */
const SAMPLE_USERS = 5_000;
/** How long an exact count may still arrive after the estimate is ready, on projects large enough to estimate. */
const EXACT_GRACE_MS = 150;
/** The estimate's own budget (it starts beside the exact queries): past it the preview answers 503. */
const ESTIMATE_BUDGET_MS = 1700;
/** Projects smaller than this get their exact answer in time; no estimate is started for them. */
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

/**
 * How many users match `rule` now, and 20 of them, within about 2 s whatever the project's size. The rule
 * compiles to the same SQL the pipeline uses; the exact count and the sample each get 1.2 s
 * (statement_timeout). For a project of 20,000 users or more an estimate starts at the same time, so a
 * miss costs no extra wait: a TABLESAMPLE SYSTEM of about 5,000 of its users, the rule evaluated on each,
 * the matching share scaled by the project's user count and marked `estimated`. When the estimate is
 * ready first, the exact count gets EXACT_GRACE_MS more and otherwise the estimate is the answer: a
 * large project's preview then takes as long as its sample, not the exact budget. When neither finishes in
 * time the answer is a 503 that says so (the list can still be saved; its members are computed in the
 * background).
 */
export async function previewList(ctx: ProjectContext<Db>, rule: Rule): Promise<ListPreview> {
  const { db, projectId } = ctx;
  await checkWindowWithinRetention(ctx, rule);
  const started = performance.now();
  const where = sql`u.project_id = ${projectId}::uuid and ${compileRule(rule, projectId)}`;
  const exactP = Promise.all([
    within<{ n: number }>(db, EXACT_BUDGET_MS, sql`select count(*)::int as n from users u where ${where}`),
    within<SampleRow>(
      db,
      EXACT_BUDGET_MS,
      sql`select ${sampleColumns} from users u where ${where} order by u.created_at desc, u.id desc limit 20`,
    ),
  ]);
  // An index-only count of the project's users: the estimate's scale, and whether one is worth starting.
  const [{ total }] = (await db.execute<{ total: number }>(
    sql`select count(*)::int as total from users where project_id = ${projectId}::uuid`,
  )) as unknown as [{ total: number }];
  const estimate = async () => {
    const [{ rel }] = (await db.execute<{ rel: number }>(
      sql`select greatest(reltuples, 1)::float8 as rel from pg_class where oid = 'users'::regclass`,
    )) as unknown as [{ rel: number }];
    const percent = Math.min(100, (SAMPLE_USERS / Math.max(1, rel)) * 100 * Math.max(1, rel / Math.max(1, total)));
    return within<SampleRow & { hit: boolean }>(
      db,
      ESTIMATE_BUDGET_MS,
      sql`
      select ${sampleColumns}, (${compileRule(rule, projectId)}) as hit
      from users u tablesample system (${percent}) repeatable (7) where u.project_id = ${projectId}::uuid limit ${SAMPLE_USERS * 2}`,
    );
  };
  const early = total >= ESTIMATE_FROM_USERS ? estimate() : null;
  // Unawaited when the exact answer wins: its failure must not become an unhandled rejection.
  early?.catch(() => {});
  // On a large project the estimate usually lands first: answer with it unless the exact count follows
  // within EXACT_GRACE_MS, so the preview takes about as long as the estimate whatever the project's size.
  // The exact queries left behind end at their own statement timeout.
  if (early) {
    const first = await Promise.race([
      exactP.then(() => "exact" as const),
      early.then((r) => (r ? "estimate" : "none")),
    ]);
    if (first === "estimate") {
      const graced = await Promise.race([exactP, new Promise<null>((r) => setTimeout(() => r(null), EXACT_GRACE_MS))]);
      if (!graced?.[0] || !graced[1]) {
        exactP.catch(() => {});
        return fromSample((await early)!, total, started);
      }
    }
  }
  const [exact, sample] = await exactP;
  if (exact && sample)
    return { count: exact[0]!.n, estimated: false, sample, took_ms: Math.round(performance.now() - started) };

  const rows = await (early ?? estimate());
  if (!rows && !exact)
    throw new Unavailable(
      "The preview ran out of time: this rule reads too many events to count within 2 s. Narrow it (a shorter window, a rarer event), or save the list: its members are computed in the background.",
    );
  const hits = (rows ?? []).filter((r) => r.hit);
  const count = exact ? exact[0]!.n : rows!.length ? Math.round((hits.length / rows!.length) * total) : 0;
  return {
    count,
    estimated: !exact,
    sample: sample ?? hits.slice(0, 20).map(({ hit: _, ...r }) => r),
    took_ms: Math.round(performance.now() - started),
  };
}

/** The answer from the sample: the matching share scaled by the project's user count, marked estimated. */
function fromSample(rows: (SampleRow & { hit: boolean })[], total: number, started: number): ListPreview {
  const hits = rows.filter((r) => r.hit);
  return {
    count: rows.length ? Math.round((hits.length / rows.length) * total) : 0,
    estimated: true,
    sample: hits.slice(0, 20).map(({ hit: _, ...r }) => r),
    took_ms: Math.round(performance.now() - started),
  };
}
