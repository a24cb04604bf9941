import { closeDatabase, getDb } from "../db/client";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { ensureSchedule } from "../lib/schedules/definitions";
import { startWorker, type TestWorker } from "../scripts/test/worker";
import { systemContext } from "../lib/access/context";
import { benchDatabase } from "./harness";

/*
 * Schedule firing, measured on real worker processes against a fresh database:
 * 1. burst: BENCH_BURST firings (default 100,000) all due at the same instant; seconds from that instant
 *    until the last is recorded (target: under 20 s).
 * 2. client events: the same number of client events (of the same users, by identifier) put in the
 *    intake at once; seconds until the same workers recorded them all. The burst's firings/s over these
 *    events/s is the ratio issue 36 asks to be at least 0.8.
 * 3. steady: BENCH_RATE firings/s (default 500) due evenly over BENCH_SECONDS (default 20); lag from
 *    fire_at to the commit that recorded it, p50/p99 (target p99 under 2 s).
 * The burst's firings are inserted due at one instant, as materializing makes them, never moved there by
 * an UPDATE: each UPDATE of every firing left a dead version of each (autovacuum may be off on a
 * development server) that the loop's claims and marks then paid for, about twice the cost of a batch.
 * The lead grows with the burst: the users and assignments are inserted first (timed), and the firings
 * are due 3 s plus twice that time later.
 * BENCH_WORKERS worker processes (default 2) run with their default settings (SCHEDULE_* env applies).
 */
const BURST = Number(process.env.BENCH_BURST ?? 100_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

const { db, sql } = await benchDatabase("relay_bench_schedules");
const workers: TestWorker[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

try {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "schedules", ownerEmail: "bench@example.com" },
  );
  const schedule = await ensureSchedule(systemContext(getDb(), project.id), { name: "bench", type: "single" });

  /** Users, one single assignment each and its firing, parked far in the future until `arm` sets the times. */
  async function seed(count: number) {
    const t = Date.now();
    await sql`
      with u as (insert into users (project_id) select ${project.id} from generate_series(1, ${count}) returning project_id, id),
      a as (insert into schedule_assignments (project_id, schedule_id, user_id, anchor, occurrence_at, data)
            select u.project_id, ${schedule.id}, u.id, '2999-01-01', '2999-01-01', '{"bench": true}' from u returning project_id, id, schedule_id)
      insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at)
      select a.project_id, a.id, o.id, 0, '2999-01-01'
      from a join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id`;
    await sql`analyze users, schedule_assignments, schedule_firings, events`;
    return Date.now() - t;
  }

  /**
   * Whether a firing of the project is still pending: the first entry of the due index, a few pages
   * however large the burst. A count read every firing (and every dead version the arming left) each
   * poll, so the bench took more CPU from the workers it timed the larger the burst.
   */
  async function pending() {
    const rows =
      await sql`select 1 from schedule_firings where project_id = ${project.id} and state = 'pending' order by fire_at limit 1`;
    return rows.length > 0;
  }

  /** Whether steps 2-4 of the project's recorded events are still queued or running. */
  async function stepsQueued() {
    const [{ queued }] = await sql`select exists (select 1 from pgboss.job where state in ('created', 'retry', 'active')
      and name like 'pipeline.%' and data->>'projectId' = ${project.id}) as queued`;
    return queued as boolean;
  }

  const t0 = Date.now();
  for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(db.url));
  console.log(`workers: ${WORKERS} started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // 1. Burst.
  const seeding = Date.now();
  await sql`
    with u as (insert into users (project_id) select ${project.id} from generate_series(1, ${BURST}) returning project_id, id)
    insert into schedule_assignments (project_id, schedule_id, user_id, anchor, occurrence_at, data)
    select u.project_id, ${schedule.id}, u.id, '2999-01-01', '2999-01-01', '{"bench": true}' from u`;
  const lead = 3000 + 2 * (Date.now() - seeding);
  const due = new Date(Date.now() + lead);
  await sql`
    insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at)
    select a.project_id, a.id, o.id, 0, ${due.toISOString()}
    from schedule_assignments a join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id
    where a.project_id = ${project.id}`;
  await sql`analyze users, schedule_assignments, schedule_firings, events`;
  console.log(`burst: seeded ${BURST.toLocaleString("en")} firings in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
  if (Date.now() > due.getTime()) throw new Error(`seeding the burst took longer than its ${lead} ms lead`);
  while (await pending()) await sleep(500);
  const observed = (Date.now() - due.getTime()) / 1000;
  const [burst] = await sql`
    select extract(epoch from max(fired_at) - ${due.toISOString()}::timestamptz)::float as last, count(*)::int as n,
           (select count(*)::int from events where project_id = ${project.id} and name = 'scheduled.bench') as events
    from schedule_firings where project_id = ${project.id} and state = 'fired'`;
  console.log(
    `burst: ${burst!.n.toLocaleString("en")} firings due at one instant, all recorded ${burst!.last.toFixed(2)} s after it ` +
      `(${Math.round(burst!.n / burst!.last).toLocaleString("en")} firings/s; observed by polling ${observed.toFixed(1)} s); ` +
      `events recorded: ${burst!.events.toLocaleString("en")}; arming lead ${(lead / 1000).toFixed(1)} s`,
  );
  const firingRate = burst!.n / burst!.last;
  // Let the workers finish the burst's steps 2-4 first (the firing loop enqueues them itself; its events
  // never pass through the intake), so the events below have the workers to themselves too.
  while (await stepsQueued()) await sleep(250);

  // 2. The same workers recording as many client events, of the same users, put in the intake at once.
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select project_id, 'default', id::text, id from users where project_id = ${project.id} on conflict do nothing`;
  await sql`analyze user_identifiers`;
  const accepted = Date.now();
  await sql`
    insert into event_intake (project_id, kind, name, identifier, data, occurred_at, received_at)
    select ${project.id}, 'user', 'bench.client', jsonb_build_array(jsonb_build_object('source', 'default', 'external_id', id::text)),
      '{"bench": true}', now(), now()
    from users where project_id = ${project.id} limit ${BURST}`;
  const inserted = Date.now();
  while (
    (await sql`select 1 from event_intake where project_id = ${project.id} and name = 'bench.client' limit 1`).length
  )
    await sleep(100);
  const clientSeconds = (Date.now() - inserted) / 1000;
  const [{ n: clientEvents }] =
    await sql`select count(*)::int as n from events where project_id = ${project.id} and name = 'bench.client'`;
  const clientRate = clientEvents / clientSeconds;
  console.log(
    `client events: ${clientEvents.toLocaleString("en")} put in the intake (${((inserted - accepted) / 1000).toFixed(1)} s), ` +
      `all recorded ${clientSeconds.toFixed(2)} s later (${Math.round(clientRate).toLocaleString("en")} events/s)`,
  );
  console.log(
    `ratio: firings/s over client events/s = ${(firingRate / clientRate).toFixed(2)} (target >= 0.8); load average ${(
      await import("node:os")
    )
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );

  // 3. Steady rate (BENCH_RATE=0 skips it).
  const total = RATE * SECONDS;
  if (total) {
    await seed(total);
    const start = new Date(Date.now() + 3000);
    // The newest `total` firings (still parked) are spread evenly over the window.
    await sql`
    update schedule_firings f set fire_at = ${start.toISOString()}::timestamptz + (r.i * ${1000 / RATE} * interval '1 millisecond')
    from (select assignment_id, offset_id, cycle, row_number() over (order by assignment_id, offset_id, cycle) - 1 as i from schedule_firings
          where project_id = ${project.id} and state = 'pending') r
    where f.project_id = ${project.id} and (f.assignment_id, f.offset_id, f.cycle) = (r.assignment_id, r.offset_id, r.cycle)`;
    while (await pending()) await sleep(250);
    const [steady] = await sql`
    select count(*)::int as n,
      percentile_cont(0.5) within group (order by extract(epoch from fired_at - fire_at))::float as p50,
      percentile_cont(0.99) within group (order by extract(epoch from fired_at - fire_at))::float as p99,
      max(extract(epoch from fired_at - fire_at))::float as max
    from schedule_firings where project_id = ${project.id} and state = 'fired' and fire_at >= ${start.toISOString()}`;
    console.log(
      `steady: ${steady!.n.toLocaleString("en")} firings at ${RATE}/s over ${SECONDS} s; lag fire_at -> recorded ` +
        `p50 ${(steady!.p50 * 1000).toFixed(0)} ms, p99 ${(steady!.p99 * 1000).toFixed(0)} ms, max ${(steady!.max * 1000).toFixed(0)} ms; target p99 < 2 s`,
    );
  }
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await closeDatabase();
  await db.drop();
}
