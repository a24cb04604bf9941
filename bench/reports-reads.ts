import { mkdirSync, writeFileSync } from "node:fs";
import { getDb, getSql } from "../db/client";
import { foldRollups } from "../lib/reports/fold-rollups";
import { type BenchProject, catalogue } from "./reports-catalogue";
import type { ReportsEnvironment, Size } from "./reports-environment";
import { type Catalogue, seedMessages } from "./reports-seed";
import { CALLS, DAYS, KEPT, LARGE, load, log, median, ROUNDS, SMALL } from "./reports-settings";
import { benchProject } from "./harness";

/** p50 and p95 of `CALLS` timed calls after one warm-up, and the last answer's status and body. */
async function timeCalls(url: string, p: BenchProject, path: string) {
  const ms: number[] = [];
  let status = 0;
  let body = "";
  for (let i = 0; i <= CALLS; i++) {
    const t = performance.now();
    const res = await fetch(`${url}/api/admin/projects/${p.projectId}${path}`, {
      headers: { authorization: `Bearer ${p.key}` },
    });
    body = await res.text();
    status = res.status;
    if (i > 0) ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return {
    p50: ms[Math.floor(ms.length * 0.5)]!,
    p95: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))]!,
    status,
    body,
  };
}

/**
 * The worker's fold of closed hours' and days' shards (lib/reports/fold-rollups.ts, every minute), which
 * the rows the seed wrote have not had yet; on a kept database, what is left (a database seeded before
 * folding existed, or hours closed since).
 */
async function fold() {
  const t = Date.now();
  const keys = await foldRollups({ db: getDb() });
  log(`fold: ${keys.toLocaleString("en")} keys in ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

/** Two projects seeded small and large (or the kept ones), folded, vacuumed and analyzed. */
async function seeded(env: ReportsEnvironment): Promise<Size[]> {
  const sql = getSql();
  if (env.kept) {
    await fold();
    await sql`vacuum analyze message_rollups, message_rollups_daily`;
    return env.kept.sizes;
  }
  const now = Date.now();
  const small = await benchProject("reports-small", "admin");
  const large = { projectId: env.projectId, key: env.key };
  const sizes = [
    { name: "small", p: small, n: SMALL, c: await catalogue(env.url, small) },
    { name: "large", p: large, n: LARGE, c: await catalogue(env.url, large) },
  ];
  for (const s of sizes) {
    const t0 = Date.now();
    const seeded = await seedMessages(env.db.url, s.c, { messages: s.n, days: DAYS, now, salt: s.name, log });
    log(
      `${s.name}: ${seeded.messages.toLocaleString("en")} messages, ${seeded.users.toLocaleString("en")} users, ${seeded.entries.toLocaleString("en")} entries in ${((Date.now() - t0) / 1000).toFixed(0)} s (load ${load()})`,
    );
  }
  await fold();
  const t1 = Date.now();
  await sql`vacuum analyze users, messages, journey_entries, journey_step_passes, message_engagement, message_rollups,
    message_rollups_daily`;
  log(`vacuum analyze ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  if (process.env.KEEP_TEST_DB) {
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(KEPT, JSON.stringify({ url: env.db.url, sizes }));
  }
  return sizes;
}

/** Every report the console reads, timed on both projects, `ROUNDS` times: p50 / p95 and the p95 ratio. */
export async function reads(env: ReportsEnvironment): Promise<Record<string, unknown>[]> {
  const sql = getSql();
  const sizes = await seeded(env);
  // The seed's period ends at the time it ran; a reused database's, whenever that was.
  const now = Date.now();
  const t1 = Date.now();
  await sql`checkpoint`;
  log(`checkpoint ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  const [{ rows }] = await sql<{ rows: number }[]>`select count(*)::int as rows from message_rollups`;
  log(`${rows.toLocaleString("en")} rollup rows in all`);

  const week = encodeURIComponent(new Date(now - 7 * 86_400_000).toISOString());
  const calls: [string, (c: Catalogue) => string][] = [
    ["broadcast report", (c) => `/broadcasts/${c.broadcasts[0]}/report`],
    ["template report, all time", (c) => `/templates/${c.templates.news}/report`],
    ["template report, 7 days", (c) => `/templates/${c.templates.welcome}/report?since=${week}`],
    ["journey report", (c) => `/journeys/${c.journeyId}/report`],
    ["overview (messages per hour)", () => "/overview"],
  ];
  const out: Record<string, unknown>[] = [];
  log(`load average ${load()}`);
  // Each round times every report on both projects; each figure printed is the median of the rounds' (the
  // ratio the median of the rounds' ratios).
  const rounds: Record<string, { a: number[]; b: number[]; ratio: number[]; note: string }>[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round: (typeof rounds)[number] = {};
    for (const [name, path] of calls) {
      const a = await timeCalls(env.url, sizes[0]!.p, path(sizes[0]!.c));
      const b = await timeCalls(env.url, sizes[1]!.p, path(sizes[1]!.c));
      const note = b.status >= 400 ? ` (status ${b.status}: ${b.body.slice(0, 120)})` : "";
      round[name] = { a: [a.p50, a.p95], b: [b.p50, b.p95], ratio: [b.p95 / a.p95], note };
    }
    rounds.push(round);
    if (ROUNDS > 1) log(`round ${r + 1} of ${ROUNDS} (load ${load()})`);
  }
  const of = (name: string, k: "a" | "b" | "ratio", i: number) => median(rounds.map((r) => r[name]![k][i]!));
  console.log(
    `| report | p50 / p95 at ${sizes[0]!.n.toLocaleString("en")} messages | p50 / p95 at ${sizes[1]!.n.toLocaleString("en")} messages | p95 ratio (target <= 2; large p95 <= 100 ms) |`,
  );
  console.log("| --- | --- | --- | --- |");
  for (const [name] of calls) {
    const [a50, a95, b50, b95] = [of(name, "a", 0), of(name, "a", 1), of(name, "b", 0), of(name, "b", 1)];
    const ratioMedian = of(name, "ratio", 0);
    console.log(
      `| ${name} | ${a50.toFixed(1)} / ${a95.toFixed(1)} ms | ${b50.toFixed(1)} / ${b95.toFixed(1)} ms | ${ratioMedian.toFixed(2)}${rounds.at(-1)![name]!.note} |`,
    );
    out.push({
      name,
      small: { p50: a50, p95: a95 },
      large: { p50: b50, p95: b95 },
      ratio: ratioMedian,
      rounds: rounds.map((r) => r[name]),
    });
  }
  // The figures are the seed's: the large broadcast's sends, as the report counts them.
  const large = sizes[1]!.p;
  const report = JSON.parse((await timeCalls(env.url, large, `/broadcasts/${sizes[1]!.c.broadcasts[0]}/report`)).body);
  log(
    `large broadcast: ${report.funnel.sent.count} sent, ${report.funnel.opened.count} opened, ${report.funnel.clicked.count} clicked (load ${load()})`,
  );
  return out;
}
