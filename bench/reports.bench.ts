import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { closeDatabase, getDb, getSql } from "../db/client";
import { runMigrations } from "../db/migrate";
import { createApiKey } from "../lib/access/api-keys";
import { linkToken } from "../lib/links/tokens";
import { openPixelPath } from "../lib/reports/open-token";
import { startNextServer, TEST_AUTH_SECRET } from "../scripts/test/next-server";
import { startWorker } from "../scripts/test/worker";
import { benchEnvironment, benchProject } from "./harness";
import { type Catalogue, seedMessages } from "./reports-seed";

/*
 * `npm run bench -- reports` (issue 57).
 *
 * 1. Reads: two projects of one database, BENCH_SMALL_MESSAGES (100,000) and BENCH_MESSAGES (10,000,000)
 *    messages over the last BENCH_DAYS (30) days (bench/reports-seed.ts: eight broadcasts, a journey with
 *    two send steps, what the messages did and the rollups for it, all in SQL). Each report the console
 *    reads, BENCH_CALLS (50) times after one warm-up on each project: p50 / p95, and the p95 ratio large
 *    over small (target <= 2, and the large p95 <= 100 ms).
 * 2. Recording: with the same web and one worker (default settings), BENCH_TRACK (20,000) each of client
 *    events (`POST /users/events`, one event a request), pixel fetches (`GET /o/<token>`, each a first open
 *    of its own message by a browser) and tracked link clicks (`GET /l/<token>`, a first click of its
 *    message), BENCH_CONNECTIONS (16) requests in flight (each path exactly once: driven by
 *    autocannon's setupRequest, a run left a third of its messages unopened): per second from the first request until every one is
 *    recorded (the intake empty, so the worker recorded `message.opened` and `link.clicked` too). Opens/s
 *    and clicks/s over events/s: target >= 0.5.
 *
 * BENCH_ROUNDS (1) times the reads that many times over: each figure is the median of the rounds'.
 * KEEP_TEST_DB=1 keeps the database and writes bench/results/reports-db.json; BENCH_REUSE=1 then times the
 * reads again on it without seeding (after a rebuild; its migrations run first, so a database seeded by an
 * older build gets the newer tables' backfills).
 *
 * Writes bench/results/reports.json. Figures, not pass/fail.
 */
const LARGE = Number(process.env.BENCH_MESSAGES ?? 10_000_000);
const SMALL = Number(process.env.BENCH_SMALL_MESSAGES ?? 100_000);
const DAYS = Math.max(7, Number(process.env.BENCH_DAYS ?? 30));
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const KEPT = "bench/results/reports-db.json";
type Size = { name: string; p: { projectId: string; key: string }; n: number; c: Catalogue };
const TRACK = Number(process.env.BENCH_TRACK ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** BENCH_PHASES: `reads`, `recording` or both (the default), comma-separated. */
const PHASES = new Set((process.env.BENCH_PHASES ?? "reads,recording").split(","));
const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko)";
const log = (msg: string) => console.log(`[bench] ${new Date().toISOString().slice(11, 19)} ${msg}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Tokens minted here must verify in the server, which signs with the test secret (scripts/test/next-server.ts).
process.env.AUTH_SECRET ??= TEST_AUTH_SECRET;
// Every request here comes from one address; the pixel and link doors' per-address budget (10/s, lib/http/
// budgets.ts) would answer 429 and record nothing past its burst. Real opens come from many addresses.
process.env.RATE_LIMIT_IP ??= "10000000:10000000";

/** The kept database's url and projects (BENCH_REUSE), or a fresh database and server. */
async function environment() {
  if (!process.env.BENCH_REUSE) return { ...(await benchEnvironment("reports")), kept: undefined };
  const kept = JSON.parse(readFileSync(KEPT, "utf8")) as { url: string; sizes: Size[] };
  process.env.DATABASE_URL = kept.url;
  await runMigrations(kept.url);
  const server = await startNextServer({ DATABASE_URL: kept.url });
  log(`reusing ${kept.url}`);
  return {
    url: server.url,
    projectId: kept.sizes[1]!.p.projectId,
    key: kept.sizes[1]!.p.key,
    db: { url: kept.url },
    kept,
    async close() {
      await server.stop();
      await closeDatabase();
    },
  };
}
const env = await environment();
const sql = getSql();
const results: Record<string, unknown> = { loadavgAtStart: load(), large: LARGE, small: SMALL, days: DAYS };

/** An admin call of `key`'s project; throws on a refusal. */
async function admin<T = { id: string }>(p: { projectId: string; key: string }, path: string, body?: unknown) {
  const res = await fetch(`${env.url}/api/admin/projects/${p.projectId}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${p.key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A project's templates, broadcasts (to an empty list: the seed writes their messages) and journey. */
async function catalogue(p: { projectId: string; key: string }): Promise<Catalogue> {
  // A provider nothing is sent through (every seeded message is sent already): journeys need one to save.
  await admin(p, "/providers", {
    channel: "email",
    kind: "smtp",
    name: "none",
    url: "smtp://127.0.0.1:9?tls=none",
    from: "Bench <news@bench.example>",
  });
  const group = await admin(p, "/subscription-groups", { name: "News", channel: "email" });
  const list = await admin(p, "/lists", { name: "Nobody", kind: "static" });
  const template = (name: string) =>
    admin(p, "/templates", {
      name,
      channel: "email",
      subscription_group: group.id,
      subject: name,
      html: `<html><body><p>${name}</p><a href="https://example.com/${name}">Read</a></body></html>`,
    });
  const templates = {
    news: (await template("Newsletter")).id,
    promo: (await template("Promo")).id,
    welcome: (await template("Welcome")).id,
    nudge: (await template("Nudge")).id,
  };
  const broadcasts: string[] = [];
  for (let k = 0; k < 8; k++)
    broadcasts.push(
      (
        await admin(p, "/broadcasts", {
          name: `Issue ${k + 1}`,
          template_id: k < 4 ? templates.news : templates.promo,
          list_id: list.id,
          goal: { event: "Purchased", within: "3 days", value_path: "data.total" },
        })
      ).id,
    );
  const journey = await admin<{ id: string; entrances: { id: string }[] }>(p, "/journeys", {
    name: "Onboarding",
    allow_multiple_entries: true,
    entrances: [{ kind: "event", event_name: "Signed Up" }],
    steps: [
      { key: "welcome", kind: "send", template_id: templates.welcome },
      { key: "wait", kind: "delay", duration: "1 day" },
      {
        key: "split",
        kind: "split",
        paths: [
          { weight: 50, next: "nudge" },
          { weight: 50, next: "bye" },
        ],
      },
      { key: "nudge", kind: "send", template_id: templates.nudge, next: "bye" },
      { key: "bye", kind: "exit" },
    ],
  });
  return { projectId: p.projectId, templates, broadcasts, journeyId: journey.id, entranceId: journey.entrances[0]!.id };
}

/** p50 and p95 of `CALLS` timed calls after one warm-up, and the last answer's status. */
async function time(p: { projectId: string; key: string }, path: string) {
  const ms: number[] = [];
  let status = 0;
  let body = "";
  for (let i = 0; i <= CALLS; i++) {
    const t = performance.now();
    const res = await fetch(`${env.url}/api/admin/projects/${p.projectId}${path}`, {
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

/** Two projects seeded small and large (or the kept ones), vacuumed and analyzed. */
async function seeded(): Promise<Size[]> {
  if (env.kept) {
    await sql`vacuum analyze message_rollups, message_rollups_daily`;
    return env.kept.sizes;
  }
  const now = Date.now();
  const small = await benchProject("reports-small", "admin");
  const large = { projectId: env.projectId, key: env.key };
  const sizes = [
    { name: "small", p: small, n: SMALL, c: await catalogue(small) },
    { name: "large", p: large, n: LARGE, c: await catalogue(large) },
  ];
  for (const s of sizes) {
    const t0 = Date.now();
    const seeded = await seedMessages(env.db.url, s.c, { messages: s.n, days: DAYS, now, salt: s.name, log });
    log(
      `${s.name}: ${seeded.messages.toLocaleString("en")} messages, ${seeded.users.toLocaleString("en")} users, ${seeded.entries.toLocaleString("en")} entries in ${((Date.now() - t0) / 1000).toFixed(0)} s (load ${load()})`,
    );
  }
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

async function reads() {
  const sizes = await seeded();
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
      const a = await time(sizes[0]!.p, path(sizes[0]!.c));
      const b = await time(sizes[1]!.p, path(sizes[1]!.c));
      const note = b.status >= 400 ? ` (status ${b.status}: ${b.body.slice(0, 120)})` : "";
      round[name] = { a: [a.p50, a.p95], b: [b.p50, b.p95], ratio: [b.p95 / a.p95], note };
    }
    rounds.push(round);
    if (ROUNDS > 1) log(`round ${r + 1} of ${ROUNDS} (load ${load()})`);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
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
  const report = JSON.parse((await time(large, `/broadcasts/${sizes[1]!.c.broadcasts[0]}/report`)).body);
  log(
    `large broadcast: ${report.funnel.sent.count} sent, ${report.funnel.opened.count} opened, ${report.funnel.clicked.count} clicked (load ${load()})`,
  );
  results.reads = out;
}

/** A project for the recording phase: `n` users with identifiers, one sent message each of a broadcast. */
async function trackProject(n: number) {
  const p = await benchProject("reports-track", "admin");
  const { secret: clientKey } = await createApiKey(
    { db: getDb() },
    {
      projectId: p.projectId,
      name: "client",
      role: "client",
      rateLimitPerSecond: 10_000_000,
      rateLimitBurst: 10_000_000,
    },
  );
  const c = await catalogue(p);
  const broadcastId = c.broadcasts[0]!;
  await sql`insert into users (project_id, email) select ${p.projectId}, 't' || i || '@track.test' from generate_series(1, ${n}) i`;
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select ${p.projectId}, 'default', 't-' || row_number() over (order by id), id from users where project_id = ${p.projectId}`;
  // Sent an hour ago, so no fetch is taken for a prefetch at delivery (lib/reports/machine-open.ts).
  const rows = await sql<{ id: string; user_id: string }[]>`
    insert into messages (project_id, template_id, user_id, channel, state, attempts, recipient, broadcast_id,
      created_at, finished_at)
    select ${p.projectId}, ${c.templates.news}, u.id, 'email', 'sent', 1, u.email, ${broadcastId},
      now() - interval '1 hour', now() - interval '1 hour'
    from users u where u.project_id = ${p.projectId}
    returning id, user_id`;
  return { ...p, clientKey, broadcastId, messages: rows.map((r) => ({ id: r.id, userId: r.user_id })) };
}

async function intakeEmpty(projectId: string) {
  const [r] = await sql<{ empty: boolean }[]>`
    select not exists (select 1 from event_intake where project_id = ${projectId}) as empty`;
  return r!.empty;
}

/**
 * `paths.length` requests, each path once, over CONNECTIONS loops (one request in flight each), then
 * waits until `recorded()` says all were and the intake is empty: things per second over that whole time.
 */
async function rate(
  projectId: string,
  what: string,
  paths: string[],
  opts: { method?: "GET" | "POST"; headers: Record<string, string>; body?: (i: number) => string },
  recorded: () => Promise<number>,
) {
  let next = 0;
  let errors = 0;
  const ms: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < paths.length; i = next++) {
        const t = performance.now();
        const res = await fetch(env.url + paths[i]!, {
          method: opts.method ?? "GET",
          headers: opts.headers,
          body: opts.body?.(i),
          redirect: "manual",
        }).catch(() => null);
        await res?.arrayBuffer().catch(() => null);
        if (!res || res.status >= 400) errors++;
        ms.push(performance.now() - t);
      }
    }),
  );
  const answered = (performance.now() - t0) / 1000;
  const deadline = Date.now() + 300_000;
  let n = 0;
  for (;;) {
    n = await recorded();
    if ((n >= paths.length && (await intakeEmpty(projectId))) || Date.now() > deadline) break;
    await sleep(50);
  }
  const seconds = (performance.now() - t0) / 1000;
  const perSecond = n / seconds;
  ms.sort((a, b) => a - b);
  const p99 = ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] ?? 0;
  log(
    `${what}: ${n.toLocaleString("en")} of ${paths.length.toLocaleString("en")} recorded in ${seconds.toFixed(1)} s (answered in ${answered.toFixed(1)} s, ${errors} errors, p99 ${p99.toFixed(0)} ms): ${perSecond.toFixed(0)}/s (load ${load()})`,
  );
  return { recorded: n, seconds, answered, perSecond, p99, errors };
}

async function recording() {
  const WARM = 200;
  const t = await trackProject(TRACK + WARM);
  const worker = await startWorker(env.db.url, { DATABASE_POOL_SIZE: "10" });
  try {
    const warm = t.messages.slice(0, WARM);
    const measured = t.messages.slice(WARM);
    const eventsPath = `/api/client/projects/${t.projectId}/users/events`;
    const event = (i: number) =>
      JSON.stringify([{ name: "Viewed", identifier: [{ external_id: `t-${(i % TRACK) + 1}` }], data: { i } }]);
    const clientHeaders = { authorization: `Bearer ${t.clientKey}`, "content-type": "application/json" };
    const pixel = (m: { id: string }) => openPixelPath({ projectId: t.projectId, messageId: m.id });
    const link = (m: { id: string; userId: string }) =>
      `/l/${linkToken({ projectId: t.projectId, campaignId: t.broadcastId, userId: m.userId, url: "https://example.com/read", messageId: m.id })}`;
    const browser = { "user-agent": BROWSER };
    // Warm each route (and the worker's pipeline) on messages not measured.
    for (const m of warm) {
      await fetch(env.url + eventsPath, { method: "POST", headers: clientHeaders, body: event(0) });
      await fetch(env.url + pixel(m), { headers: browser });
      await fetch(env.url + link(m), { headers: browser, redirect: "manual" });
    }
    while (!(await intakeEmpty(t.projectId))) await sleep(100);
    const count = async (q: PromiseLike<{ n: number }[]>) => (await q)[0]!.n;
    const [{ n: eventsBefore }] = await sql<{ n: number }[]>`
      select count(*)::int as n from events where project_id = ${t.projectId} and name = 'Viewed'`;
    const events = await rate(
      t.projectId,
      "client events (one a request)",
      measured.map(() => eventsPath),
      { method: "POST", headers: clientHeaders, body: event },
      async () =>
        (await count(
          sql`select count(*)::int as n from events where project_id = ${t.projectId} and name = 'Viewed'`,
        )) - eventsBefore,
    );
    // The warm-up's opens and clicks are recorded already: what a phase recorded is the count past them.
    const engaged = (column: "opened_at" | "clicked_at") =>
      count(sql`select (count(*) - ${WARM})::int as n from message_engagement
        where project_id = ${t.projectId} and ${sql(column)} is not null`);
    const opens = await rate(t.projectId, "opens (pixel fetches)", measured.map(pixel), { headers: browser }, () =>
      engaged("opened_at"),
    );
    const clicks = await rate(t.projectId, "clicks (tracked links)", measured.map(link), { headers: browser }, () =>
      engaged("clicked_at"),
    );
    console.log("| recorded | per second | over client events (target >= 0.5) |");
    console.log("| --- | --- | --- |");
    console.log(`| client events, one a request | ${events.perSecond.toFixed(0)} | 1 |`);
    console.log(`| opens | ${opens.perSecond.toFixed(0)} | ${(opens.perSecond / events.perSecond).toFixed(2)} |`);
    console.log(`| clicks | ${clicks.perSecond.toFixed(0)} | ${(clicks.perSecond / events.perSecond).toFixed(2)} |`);
    results.recording = {
      events,
      opens,
      clicks,
      opensRatio: opens.perSecond / events.perSecond,
      clicksRatio: clicks.perSecond / events.perSecond,
    };
  } finally {
    await worker.stop();
  }
}

try {
  if (PHASES.has("reads")) await reads();
  if (PHASES.has("recording")) await recording();
  results.loadavgAtEnd = load();
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/reports.json", JSON.stringify(results, null, 2));
} finally {
  await env.close();
}
