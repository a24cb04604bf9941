import { loadavg } from "node:os";
import { createApiKey } from "../lib/access/api-keys";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { getDb, getSql } from "../db/client";
import { benchEnvironment } from "./harness";

/*
 * `npm run bench -- console-scale` (issue 36): every admin API call the console's pages make, timed on a
 * small and a large project of one database in the same run: p95 of the large over p95 of the small
 * (target <= 2). Sizes: BENCH_EVENTS (10,000,000) events and a tenth as many users for the large one,
 * BENCH_SMALL_EVENTS (100,000) for the small one, over the last BENCH_DAYS (28) days, so several weekly
 * partitions. Seeding is SQL (`INSERT ... SELECT generate_series`, a million rows a statement), with valid
 * UUIDv7 ids (version 7, variant 8) the API accepts. BENCH_CALLS (50) calls each after one warm-up.
 */
const LARGE = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const SMALL = Number(process.env.BENCH_SMALL_EVENTS ?? 100_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 28);
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const CHUNK = 1_000_000;
const BASE = Date.now();
const log = (msg: string) => console.log(`[bench] ${new Date().toISOString().slice(11, 19)} ${msg}`);

/** A valid UUIDv7 from a time in ms and a sequence number, both SQL bigint expressions. */
const uuid7 = (ms: string, seq: string) => {
  const h = `lpad(to_hex(${ms}), 12, '0')`;
  const s = `lpad(to_hex(${seq}), 18, '0')`;
  return `(substr(${h}, 1, 8) || '-' || substr(${h}, 9, 4) || '-7' || substr(${s}, 1, 3) || '-8' || substr(${s}, 4, 3) || '-' || substr(${s}, 7, 12))::uuid`;
};
/** User i: created (i mod 30 days) seconds ago. */
const userId = (i: string) => uuid7(`${BASE} - (${i} % 2592000) * 1000`, i);

const env = await benchEnvironment("console_scale");
const sql = getSql();

async function seed(projectId: string, events: number) {
  const t0 = Date.now();
  const users = Math.max(10, Math.floor(events / 10));
  for (let from = 0; from < users; from += CHUNK) {
    const to = Math.min(users, from + CHUNK) - 1;
    await sql.unsafe(
      `insert into users (project_id, id, email, data, created_at, updated_at)
      select $1::uuid, ${userId("g")}, 'u' || g || '@bench.test',
        jsonb_build_object('plan', (array['free', 'pro', 'team', 'trial'])[(g / 10) % 4 + 1], 'seats', g % 50, 'name', 'User ' || g),
        to_timestamp((${BASE} - (g % 2592000) * 1000) / 1000.0), now()
      from generate_series(${from}::bigint, ${to}::bigint) g`,
      [projectId],
    );
  }
  await sql.unsafe(
    `insert into user_identifiers (project_id, source, external_id, user_id)
    select $1::uuid, 'default', 'u-' || g, ${userId("g")} from generate_series(0::bigint, ${users - 1}::bigint) g`,
    [projectId],
  );
  const span = DAYS * 86_400_000;
  for (let from = 0; from < events; from += CHUNK) {
    const to = Math.min(events, from + CHUNK) - 1;
    // Event g happens (g * span / events) ms ago, of user (g * 7919) mod users; a tenth are purchases.
    await sql.unsafe(
      `insert into events (project_id, id, name, user_id, data, origin, occurred_at, received_at)
      select $1::uuid, ${uuid7("t.ms", "g")}, n.name, ${userId(`((g * 7919) % ${users})`)},
        jsonb_build_object('amount', g % 500, 'path', '/p/' || (g % 100)),
        case when n.name like '%.%' then 'system' else 'client' end, to_timestamp(t.ms / 1000.0), to_timestamp(t.ms / 1000.0)
      from generate_series(${from}::bigint, ${to}::bigint) g,
        lateral (select case when g % 10 = 0 then 'purchase' when g % 50 = 1 then 'user.updated' when g % 50 = 2 then 'scheduled.renewal' else 'page_viewed' end as name) n,
        lateral (select ${BASE} - (g * ${span / events})::bigint as ms) t`,
      [projectId],
    );
  }
  // What the pipeline's schema step and rollups would hold, and a static list of a tenth of the users.
  await sql.unsafe(
    `insert into project_rollups (project_id, metric, minute, count)
    select $1::uuid, case when name like 'scheduled.%' then 'events.scheduled' when name like '%.%' then 'events.system' else 'events.client' end,
      date_trunc('minute', received_at), count(*) from events where project_id = $1::uuid group by 2, 3`,
    [projectId],
  );
  await sql.unsafe(
    `insert into event_schema (project_id, event_name, path, types, count, first_seen, last_seen)
    select $1::uuid, name, p.path, '{number}', count(*), min(occurred_at), max(occurred_at)
    from events cross join (values (''), ('amount'), ('path')) p(path) where project_id = $1::uuid group by name, p.path`,
    [projectId],
  );
  const [list] = await sql<{ id: string }[]>`
    insert into lists (project_id, name, kind) values (${projectId}, 'Tenth', 'static') returning id`;
  await sql.unsafe(
    `insert into list_members (project_id, list_id, user_id)
    select $1::uuid, $2::uuid, ${userId("g")} from generate_series(0::bigint, ${users - 1}::bigint, 10) g`,
    [projectId, list!.id],
  );
  log(
    `seeded ${events.toLocaleString("en")} events, ${users.toLocaleString("en")} users in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  return { users, listId: list!.id };
}

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
try {
  const sizes = {
    small: { projectId: small.project.id, key: smallKey, ...(await seed(small.project.id, SMALL)) },
    large: { projectId: env.projectId, key: env.key, ...(await seed(env.projectId, LARGE)) },
  };
  await sql`vacuum analyze users, user_identifiers, events, list_members, project_rollups, event_schema`;

  type Size = (typeof sizes)["small"];
  const since = new Date(Date.now() - 3_600_000).toISOString();
  // The console's pages' calls: overview, users (list, by identifier, e-mail, data, name search via data),
  // a user's profile and events, live events (list, by name, since), schema, lists, a list's members, a
  // list preview, the request log.
  const calls: [string, (s: Size, i: number) => [string, string, unknown?]][] = [
    ["overview", () => ["GET", "/overview"]],
    ["users", () => ["GET", "/users?limit=50"]],
    ["users by identifier", (s, i) => ["GET", `/users?source=default&external_id=u-${(i * 97) % s.users}`]],
    ["users by e-mail", (s, i) => ["GET", `/users?email=u${(i * 89) % s.users}@bench.test`]],
    ["users by data", () => ["GET", `/users?limit=50&data=${encodeURIComponent('{"plan":"team"}')}`]],
    [
      "users by name (data)",
      (s, i) => ["GET", `/users?data=${encodeURIComponent(JSON.stringify({ name: `User ${(i * 83) % s.users}` }))}`],
    ],
    ["user profile", (s, i) => ["GET", `/users/${i}`]],
    ["user's events", (s, i) => ["GET", `/events?limit=50&user_id=${i}`]],
    ["live events", () => ["GET", "/events?limit=50"]],
    ["live events by name", () => ["GET", "/events?limit=50&name=purchase"]],
    ["live events since", () => ["GET", `/events?limit=50&since=${encodeURIComponent(since)}`]],
    ["schema", () => ["GET", "/schema"]],
    ["lists", () => ["GET", "/lists"]],
    ["list members", (s) => ["GET", `/lists/${s.listId}/users?limit=50`]],
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
    ["request log", () => ["GET", "/requests?limit=50"]],
  ];
  // Users by their index, as the API names them (the profile and its events take an id).
  const ids = async (s: Size) =>
    (await sql.unsafe(`select ${userId("g")}::text as id from generate_series(0::bigint, ${CALLS}::bigint) g`)).map(
      (r) => r.id as string,
    );
  const idsOf = { small: await ids(sizes.small), large: await ids(sizes.large) };

  const time = async (s: Size, which: "small" | "large", make: (s: Size, i: number) => [string, string, unknown?]) => {
    const ms: number[] = [];
    let last: { status: number; body: string } = { status: 0, body: "" };
    for (let i = 0; i <= CALLS; i++) {
      let [method, path, body] = make(s, i);
      path = path.replace(/\/users\/(\d+)$/, (_, k) => `/users/${idsOf[which][Number(k)]}`);
      path = path.replace(/user_id=(\d+)$/, (_, k) => `user_id=${idsOf[which][Number(k)]}`);
      const t = performance.now();
      const res = await fetch(`${env.url}/api/admin/projects/${s.projectId}${path}`, {
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
  log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `| call | p50 / p95 at ${SMALL.toLocaleString("en")} events | p50 / p95 at ${LARGE.toLocaleString("en")} events | p95 ratio (target <= 2) |`,
  );
  console.log("| --- | --- | --- | --- |");
  for (const [name, make] of calls) {
    const a = await time(sizes.small, "small", make);
    const b = await time(sizes.large, "large", make);
    const note = b.last.status >= 400 ? ` (status ${b.last.status}: ${b.last.body.slice(0, 120)})` : "";
    const estimated =
      name === "list preview" ? ` ${/"estimated":true/.test(b.last.body) ? "estimated" : "exact"} at large` : "";
    console.log(
      `| ${name} | ${a.p50.toFixed(0)} / ${a.p95.toFixed(0)} ms | ${b.p50.toFixed(0)} / ${b.p95.toFixed(0)} ms | ${(b.p95 / a.p95).toFixed(2)}${estimated}${note} |`,
    );
  }
  log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
} finally {
  await env.close();
}
