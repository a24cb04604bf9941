/**
 * `npm run bench -- console`: the console's two heavy reads at the issue's scale.
 *   - GET /overview on a project with 10,000,000 events (7 days) and their per-minute rollups, the rows the
 *     worker's schema step would have added: p50/p95 over 20 calls (target < 300 ms).
 *   - POST /lists/preview over 1,000,000 users with a rule of an event condition and a user property
 *     (target < 2 s): p50/p95 over 10 calls, and whether the count was exact or estimated.
 * Seeding is SQL (`INSERT ... SELECT generate_series`, 1,000,000 rows a statement) and takes minutes, so
 * `KEEP_TEST_DB=1` keeps the database and `BENCH_DATABASE_URL=<its url>` reuses it without seeding.
 * Figures, not pass/fail.
 */
import { loadavg } from "node:os";
import postgres from "postgres";
import { createApiKey } from "../lib/access/api-keys";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { closeDatabase, getDb } from "../db/client";
import { createTestDatabase } from "../scripts/test/database";
import { startNextServer } from "../scripts/test/next-server";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const CHUNK = 1_000_000;
const log = (msg: string) => console.log(`[bench] ${new Date().toISOString().slice(11, 19)} ${msg}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const reused = process.env.BENCH_DATABASE_URL;
const db = reused
  ? { url: reused, name: new URL(reused).pathname.slice(1), drop: async () => {} }
  : await createTestDatabase("relay_bench_console");
process.env.DATABASE_URL = db.url;
process.env.DATABASE_CONNECT_TIMEOUT ??= "15";
const sql = postgres(db.url, { max: 2, onnotice: () => {}, connect_timeout: 15 });
log(`database ${db.name}, load average ${load()}`);

let projectId: string;
if (reused) {
  const [p] = await sql<{ id: string }[]>`select id from projects where name = 'console' order by created_at limit 1`;
  if (!p) throw new Error(`${reused} holds no project named "console": seed it with a run without BENCH_DATABASE_URL`);
  projectId = p.id;
} else {
  ({
    project: { id: projectId },
  } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "console", ownerEmail: "bench@example.com" },
  ));
  await seed(projectId);
}
const { secret } = await createApiKey(
  { db: getDb() },
  { projectId, name: "bench", role: "admin", rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 },
);

/**
 * Users `i` = 0..USERS-1 get the id `00000000-0000-7000-<i in hex>` so events can point at them without a
 * join; plans rotate per ten users, so every plan has buyers (the rule asks for "team").
 * Events spread evenly over the last 7 days, a tenth of them `purchase` (all ten events of every tenth
 * user), a few system and scheduled ones so the overview's three series all have data.
 */
async function seed(project: string) {
  const t0 = Date.now();
  const hex = (i: string) => `lpad(to_hex(${i}), 16, '0')`;
  const uid = (i: string) =>
    `('00000000-0000-7000-' || substr(${hex(i)}, 1, 4) || '-' || substr(${hex(i)}, 5, 12))::uuid`;
  for (let from = 0; from < USERS; from += CHUNK) {
    const to = Math.min(USERS, from + CHUNK) - 1;
    await sql.unsafe(
      `
      insert into users (project_id, id, email, data, created_at, updated_at)
      select $1::uuid, ${uid("g")}, 'u' || g || '@bench.test',
        jsonb_build_object('plan', (array['free', 'pro', 'team', 'trial'])[(g / 10) % 4 + 1], 'seats', g % 50),
        now() - (g % 2592000) * interval '1 second', now()
      from generate_series(${from}::bigint, ${to}::bigint) g`,
      [project],
    );
    log(`users ${to + 1}`);
  }
  await sql.unsafe(
    `
    insert into user_identifiers (project_id, source, external_id, user_id)
    select $1::uuid, 'default', 'u-' || g, ${uid("g")} from generate_series(0::bigint, ${USERS - 1}::bigint) g`,
    [project],
  );
  log("identifiers");
  for (let from = 0; from < EVENTS; from += CHUNK) {
    const to = Math.min(EVENTS, from + CHUNK) - 1;
    // Event g happens (g mod 604800) seconds ago; user (g * 7919) mod USERS, so each user's events spread over the week.
    await sql.unsafe(
      `
      insert into events (project_id, id, name, user_id, data, origin, occurred_at, received_at)
      select $1::uuid, ${uid("g").replace("00000000-", "00000001-")},
        n.name, ${uid(`(g * 7919) % ${USERS}`)}, jsonb_build_object('amount', g % 500, 'path', '/p/' || (g % 100)),
        case when n.name like '%.%' then 'system' else 'client' end, t.at, t.at
      from generate_series(${from}::bigint, ${to}::bigint) g,
        lateral (select case when g % 10 = 0 then 'purchase' when g % 50 = 1 then 'user.updated' when g % 50 = 2 then 'scheduled.renewal' else 'page_viewed' end as name) n,
        lateral (select now() - (g % 604800) * interval '1 second' as at) t`,
      [project],
    );
    log(`events ${to + 1}`);
  }
  // The rollups the pipeline's schema step writes (lib/overview/rollup-of.ts): per minute and series.
  await sql.unsafe(
    `
    insert into project_rollups (project_id, metric, minute, count)
    select $1::uuid, case when name like 'scheduled.%' then 'events.scheduled' when name like '%.%' then 'events.system' else 'events.client' end,
      date_trunc('minute', received_at), count(*)
    from events where project_id = $1::uuid group by 2, 3
    union all
    select $1::uuid, 'users.created', date_trunc('minute', created_at), count(*) from users where project_id = $1::uuid group by 3`,
    [project],
  );
  await sql.unsafe(`analyze users; analyze events; analyze user_identifiers; analyze project_rollups`);
  log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

const [{ events, users, rollups }] = await sql<{ events: number; users: number; rollups: number }[]>`
  select (select count(*) from events where project_id = ${projectId})::int as events,
    (select count(*) from users where project_id = ${projectId})::int as users,
    (select count(*) from project_rollups where project_id = ${projectId})::int as rollups`;
log(`project ${projectId}: ${events} events, ${users} users, ${rollups} rollup rows`);

const server = await startNextServer({ DATABASE_URL: db.url, DATABASE_POOL_SIZE: "10" });
const base = `${server.url}/api/admin/projects/${projectId}`;
const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
async function time(n: number, call: () => Promise<Response>) {
  const ms: number[] = [];
  let last: unknown;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await call();
    last = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(last)}`);
    ms.push(performance.now() - t);
  }
  return { p50: Math.round(pct(ms, 50)), p95: Math.round(pct(ms, 95)), max: Math.round(Math.max(...ms)), last };
}

try {
  log(`load average before the calls: ${load()}`);
  await fetch(`${base}/overview`, { headers }); // the first call compiles the route
  const overview = await time(20, () => fetch(`${base}/overview`, { headers }));
  const o = overview.last as { events_per_hour: { client: number; system: number; scheduled: number }[] };
  const weekly = o.events_per_hour.reduce((s, b) => s + b.client + b.system + b.scheduled, 0);
  log(
    `GET /overview over 20 calls: p50 ${overview.p50} ms, p95 ${overview.p95} ms, max ${overview.max} ms (target < 300 ms); events in its 7-day series ${weekly}`,
  );

  const rules = {
    all: [
      { event: { name: "purchase", at_least: 1, within_days: 30 } },
      { property: { path: "data.plan", op: "eq", value: "team" } },
    ],
  };
  const body = JSON.stringify({ rules });
  await fetch(`${base}/lists/preview`, { method: "POST", headers, body });
  const preview = await time(10, () => fetch(`${base}/lists/preview`, { method: "POST", headers, body }));
  const p = preview.last as { count: number; estimated: boolean; took_ms: number; sample: unknown[] };
  log(
    `POST /lists/preview over 10 calls: p50 ${preview.p50} ms, p95 ${preview.p95} ms, max ${preview.max} ms (target < 2 s); count ${p.count} (${p.estimated ? "estimated" : "exact"}), sample ${p.sample.length}`,
  );
  log(`load average after: ${load()}`);
} finally {
  await server.stop();
  await sql.end();
  await closeDatabase();
  await db.drop();
}
