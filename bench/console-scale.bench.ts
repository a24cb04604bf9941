import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { createApiKey } from "../lib/access/api-keys";
import { createWeekPartition, ensureEventPartitions, weekStart } from "../lib/events/partitions";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { closeDatabase, getDb, getSql } from "../db/client";
import { runMigrations } from "../db/migrate";
import { startNextServer } from "../scripts/test/next-server";
import { seedProject } from "./console-scale-seed";
import { benchEnvironment } from "./harness";

/*
 * `npm run bench -- console-scale` (issue 36): every admin API call the console's pages make, timed on a
 * small and a large project of one database in the same run: p95 of the large over p95 of the small
 * (target <= 2). Sizes: BENCH_EVENTS (10,000,000) events and a tenth as many users for the large one,
 * BENCH_SMALL_EVENTS (100,000) for the small one, over the last BENCH_DAYS (91) days in weekly partitions
 * made by the worker's partition code; users signed up over the last 365 days. Seeding is COPY of rows
 * generated in this process (bench/console-scale-seed.ts), over BENCH_COPY_STREAMS (2) connections for the
 * events, then VACUUM ANALYZE. BENCH_CALLS (50) calls each after one warm-up. KEEP_TEST_DB=1 keeps the
 * database (and writes bench/results/console-scale-db.json); BENCH_REUSE=1 then times the calls again on it
 * without seeding (after a rebuild, say); BENCH_ONLY (a regular expression) times only the calls it matches.
 */
const LARGE = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const SMALL = Number(process.env.BENCH_SMALL_EVENTS ?? 100_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 91);
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const STREAMS = Number(process.env.BENCH_COPY_STREAMS ?? 2);
const WEEK = 7 * 86_400_000;
const log = (msg: string) => console.log(`[bench] ${new Date().toISOString().slice(11, 19)} ${msg}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** What a later run with BENCH_REUSE=1 needs to time the calls again on the kept database (BENCH_KEEP=1). */
const KEPT = "bench/results/console-scale-db.json";
type Project = { projectId: string; key: string; listId: string; journeyId: string };
type Seed = Project & { users: number; userIds: string[]; emails: (string | null)[]; names: string[] };

async function seedBoth(url: string, large: { projectId: string; key: string }) {
  const small = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "small", projectName: "small", ownerEmail: "small@example.com" },
  );
  const { secret: smallKey } = await createApiKey(
    { db: getDb() },
    {
      projectId: small.project.id,
      name: "bench",
      role: "admin",
      rateLimitPerSecond: 1_000_000,
      rateLimitBurst: 1_000_000,
    },
  );
  const sql = getSql();
  // As if partitioning had started before the seeded history: events_before (empty in a fresh database)
  // ends at the first seeded week, and each week since is a partition made as the worker makes them.
  const now = Date.now();
  const first = weekStart(new Date(now - DAYS * 86_400_000));
  await sql`alter table events detach partition events_before`;
  await sql.unsafe(
    `alter table events attach partition events_before for values from (minvalue) to ('${first.toISOString()}')`,
  );
  for (let w = first.getTime(); w <= now; w += WEEK) await createWeekPartition({ db: getDb() }, new Date(w));
  await ensureEventPartitions({ db: getDb() });

  const seed = async (projectId: string, events: number, salt: number) => {
    const t0 = Date.now();
    const users = Math.max(10, Math.floor(events / 10));
    const seeded = await seedProject({
      url,
      projectId,
      salt,
      users,
      events,
      userDays: 365,
      eventDays: DAYS,
      now,
      streams: STREAMS,
    });
    log(
      `seeded ${events.toLocaleString("en")} events, ${users.toLocaleString("en")} users by COPY in ${((Date.now() - t0) / 1000).toFixed(0)} s (load ${load()})`,
    );
    return { users, ...seeded };
  };
  const t0 = Date.now();
  const smallSeed = await seed(small.project.id, SMALL, 1);
  const largeSeed = await seed(large.projectId, LARGE, 2);
  const t1 = Date.now();
  await sql`vacuum analyze users, user_identifiers, events, list_members, project_rollups, event_schema, journey_entries`;
  // The seeding's dirty pages written out now, not while the calls are timed.
  await sql`checkpoint`;
  log(
    `seeding ${((t1 - t0) / 1000).toFixed(0)} s, vacuum analyze ${((Date.now() - t1) / 1000).toFixed(0)} s (load ${load()})`,
  );
  return {
    small: { projectId: small.project.id, key: smallKey, ...smallSeed },
    large: { ...large, ...largeSeed },
  };
}

/** A kept database's projects, with their users read back in index (signup) order. */
async function reread(p: Project): Promise<Seed> {
  const rows = await getSql()<{ id: string; email: string | null; name: string }[]>`
    select id::text, email, data->>'name' as name from users where project_id = ${p.projectId} order by id`;
  return {
    ...p,
    users: rows.length,
    userIds: rows.map((r) => r.id),
    emails: rows.map((r) => r.email),
    names: rows.map((r) => r.name),
  };
}

let close: () => Promise<void>;
let url: string;
let sizes: { small: Seed; large: Seed };
if (process.env.BENCH_REUSE) {
  const kept = JSON.parse(readFileSync(KEPT, "utf8")) as { url: string; small: Project; large: Project };
  process.env.DATABASE_URL = kept.url;
  await runMigrations(kept.url);
  const server = await startNextServer({ DATABASE_URL: kept.url });
  url = server.url;
  close = async () => {
    await server.stop();
    await closeDatabase();
  };
  sizes = { small: await reread(kept.small), large: await reread(kept.large) };
  log(`reusing ${kept.url}`);
} else {
  const env = await benchEnvironment("console_scale");
  url = env.url;
  close = () => env.close();
  sizes = await seedBoth(env.db.url, { projectId: env.projectId, key: env.key });
  if (process.env.KEEP_TEST_DB) {
    mkdirSync("bench/results", { recursive: true });
    const keep = ({ projectId, key, listId, journeyId }: Seed) => ({ projectId, key, listId, journeyId });
    writeFileSync(KEPT, JSON.stringify({ url: env.db.url, small: keep(sizes.small), large: keep(sizes.large) }));
  }
}
try {
  type Size = (typeof sizes)["small"];
  const since = new Date(Date.now() - 3_600_000).toISOString();
  const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  // A user of the project by a spread of indexes (the i-th call's), one with an e-mail for the e-mail search.
  const nth = (s: Size, i: number) => (i * 7919 + 13) % s.users;
  const withEmail = (s: Size, i: number) => {
    let k = nth(s, i);
    while (!s.emails[k]) k = (k + 1) % s.users;
    return s.emails[k]!;
  };
  // The console's pages' calls: overview, users (list, by identifier, e-mail, data, name via data), a
  // user's profile, timeline and events, live events (list, by name, since), schema, lists, a list and its
  // members, a list preview, journey entries, the request log.
  const calls: [string, (s: Size, i: number) => [string, string, unknown?]][] = [
    ["overview", () => ["GET", "/overview"]],
    ["users", () => ["GET", "/users?limit=50"]],
    ["users by identifier", (s, i) => ["GET", `/users?source=default&external_id=u-${nth(s, i)}`]],
    ["users by e-mail", (s, i) => ["GET", `/users?email=${encodeURIComponent(withEmail(s, i))}`]],
    ["users by data", () => ["GET", `/users?limit=50&data=${q({ plan: "team" })}`]],
    ["users by data, rare", () => ["GET", `/users?limit=50&data=${q({ plan: "team", country: "JP", seats: 7 })}`]],
    ["users by name (data)", (s, i) => ["GET", `/users?data=${q({ name: s.names[nth(s, i)] })}`]],
    ["user profile", (s, i) => ["GET", `/users/${s.userIds[nth(s, i)]}`]],
    ["user timeline", (s, i) => ["GET", `/users/${s.userIds[nth(s, i)]}/timeline?limit=25`]],
    ["user's events", (s, i) => ["GET", `/events?limit=50&user_id=${s.userIds[nth(s, i)]}`]],
    ["live events", () => ["GET", "/events?limit=50"]],
    ["live events by name", () => ["GET", "/events?limit=50&name=purchase"]],
    ["live events since", () => ["GET", `/events?limit=50&since=${encodeURIComponent(since)}`]],
    ["schema", () => ["GET", "/schema"]],
    ["lists", () => ["GET", "/lists?limit=100"]],
    ["list", (s) => ["GET", `/lists/${s.listId}`]],
    ["list members", (s) => ["GET", `/lists/${s.listId}/users?limit=25`]],
    [
      "list preview",
      () => [
        "POST",
        "/lists/preview",
        {
          rules: {
            all: [
              { event: { name: "purchase", within_days: 7 } },
              { property: { path: "data.plan", op: "eq", value: "team" } },
            ],
          },
        },
      ],
    ],
    ["journeys", () => ["GET", "/journeys?limit=100"]],
    ["journey", (s) => ["GET", `/journeys/${s.journeyId}`]],
    ["journey entries", (s) => ["GET", `/journeys/${s.journeyId}/entries?limit=50`]],
    ["journey entries, active", (s) => ["GET", `/journeys/${s.journeyId}/entries?limit=50&state=active`]],
    ["request log", () => ["GET", "/requests?limit=50"]],
  ];

  const time = async (s: Size, make: (s: Size, i: number) => [string, string, unknown?]) => {
    const ms: number[] = [];
    let last: { status: number; body: string } = { status: 0, body: "" };
    for (let i = 0; i <= CALLS; i++) {
      const [method, path, body] = make(s, i);
      const t = performance.now();
      const res = await fetch(`${url}/api/admin/projects/${s.projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${s.key}`, "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
      last = { status: res.status, body: await res.text() };
      if (i > 0) ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    return {
      p50: ms[Math.floor(ms.length * 0.5)]!,
      p95: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))]!,
      last,
    };
  };
  log(`load average ${load()}`);
  console.log(
    `| call | p50 / p95 at ${SMALL.toLocaleString("en")} events | p50 / p95 at ${LARGE.toLocaleString("en")} events | p95 ratio (target <= 2) |`,
  );
  console.log("| --- | --- | --- | --- |");
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
  for (const [name, make] of calls.filter(([name]) => !only || only.test(name))) {
    const a = await time(sizes.small, make);
    const b = await time(sizes.large, make);
    const note = b.last.status >= 400 ? ` (status ${b.last.status}: ${b.last.body.slice(0, 120)})` : "";
    const estimated =
      name === "list preview" ? ` ${/"estimated":true/.test(b.last.body) ? "estimated" : "exact"} at large` : "";
    console.log(
      `| ${name} | ${a.p50.toFixed(0)} / ${a.p95.toFixed(0)} ms | ${b.p50.toFixed(0)} / ${b.p95.toFixed(0)} ms | ${(b.p95 / a.p95).toFixed(2)}${estimated}${note} |`,
    );
  }
  log(`load average ${load()}`);
} finally {
  await close();
}
