import { loadavg } from "node:os";
import { closeDatabase, getDb } from "../db/client";
import { systemContext } from "../lib/access/context";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { ensureSchedule } from "../lib/schedules/definitions";
import { startWorker, type TestWorker } from "../scripts/test/worker";
import { createDelayJourney, createWaitJourney, insertDelayedEntries, insertWaitingEntries } from "./journey-fixtures";
import { benchDatabase } from "./harness";

/*
 * The journeys' due loop and event waits, on real worker processes against a fresh database:
 * 1. delay burst: BENCH_JOURNEY_ENTRIES entries (default 1,000,000) waiting at a delay that ends at one
 *    instant, the next step an exit; seconds from that instant until the last has exited (each exit is
 *    a path row and a `journey.user.exited` event).
 * 2. firing burst: as many schedule firings due at one instant, fired by the same workers (each an
 *    event). Entries moved per second over firings per second is the ratio issue 45 asks to be >= 0.8.
 * 3. events: BENCH_EVENTS client events (default 50,000) put in the intake, three rounds with no entry
 *    waiting and three with BENCH_WAITING entries (default 100,000) waiting for that event name (keyed by
 *    `same_as`, so these events release none: the cost measured is the lookup), in turns after a warm-up
 *    round. Events per second with waits over without: the target is >= 0.9.
 * Rows are inserted already due at a future instant (never moved there by an UPDATE: see
 * bench/schedules.bench.ts). BENCH_WORKERS worker processes (default 2). BENCH_PREP_SQL runs on the fresh
 * database first (a storage setting or an index to compare).
 */
const ENTRIES = Number(process.env.BENCH_JOURNEY_ENTRIES ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000);
const WAITING = Number(process.env.BENCH_WAITING ?? 100_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);

const { db, sql } = await benchDatabase("relay_bench_journeys");
const workers: TestWorker[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

try {
  if (process.env.BENCH_PREP_SQL) await sql.unsafe(process.env.BENCH_PREP_SQL);
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "journeys", ownerEmail: "bench@example.com" },
  );
  const ctx = systemContext(getDb(), project.id);
  const journey = await createDelayJourney(ctx);
  const schedule = await ensureSchedule(ctx, { name: "bench", type: "single" });
  await sql`insert into users (project_id) select ${project.id} from generate_series(1, ${ENTRIES})`;
  await sql`analyze users`;

  const t0 = Date.now();
  for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(db.url));
  console.log(`workers: ${WORKERS} started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // 1. Delay burst.
  let seeding = Date.now();
  let due = new Date(Date.now() + 3000 + 60 * 1000 * Math.ceil(ENTRIES / 1_000_000));
  await insertDelayedEntries(sql, { projectId: project.id, journey, wakeAt: due });
  await sql`analyze journey_entries`;
  console.log(
    `delay: seeded ${ENTRIES.toLocaleString("en")} entries in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
  );
  if (Date.now() > due.getTime()) throw new Error("seeding the entries took longer than their lead");
  while ((await sql`select 1 from journey_entries where wake_at is not null limit 1`).length) await sleep(500);
  const [moved] = await sql`
    select extract(epoch from max(exited_at) - ${due.toISOString()}::timestamptz)::float as last, count(*)::int as n
    from journey_entries where project_id = ${project.id} and state = 'exited'`;
  const entryRate = moved!.n / moved!.last;
  console.log(
    `delay: ${moved!.n.toLocaleString("en")} entries due at one instant, all exited ${moved!.last.toFixed(2)} s after it ` +
      `(${Math.round(entryRate).toLocaleString("en")} entries/s); load average ${load()}`,
  );
  const stepsQueued = async () =>
    (
      await sql`select 1 from pgboss.job where state in ('created', 'retry', 'active') and name like 'pipeline.%'
        and data->>'projectId' = ${project.id} limit 1`
    ).length > 0;
  while (await stepsQueued()) await sleep(500);

  // 2. Firing burst, the same workers.
  seeding = Date.now();
  await sql`
    insert into schedule_assignments (project_id, schedule_id, user_id, anchor, occurrence_at, data)
    select u.project_id, ${schedule.id}, u.id, '2999-01-01', '2999-01-01', '{"bench": true}' from users u where u.project_id = ${project.id}`;
  due = new Date(Date.now() + 3000 + 2 * (Date.now() - seeding));
  await sql`
    insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at)
    select a.project_id, a.id, o.id, 0, ${due.toISOString()}
    from schedule_assignments a join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id
    where a.project_id = ${project.id}`;
  await sql`analyze schedule_assignments, schedule_firings`;
  if (Date.now() > due.getTime()) throw new Error("seeding the firings took longer than their lead");
  while (
    (
      await sql`select 1 from schedule_firings where project_id = ${project.id} and state = 'pending' order by fire_at limit 1`
    ).length
  )
    await sleep(500);
  const [fired] = await sql`
    select extract(epoch from max(fired_at) - ${due.toISOString()}::timestamptz)::float as last, count(*)::int as n
    from schedule_firings where project_id = ${project.id} and state = 'fired'`;
  const firingRate = fired!.n / fired!.last;
  console.log(
    `firings: ${fired!.n.toLocaleString("en")} due at one instant, all fired ${fired!.last.toFixed(2)} s after it ` +
      `(${Math.round(firingRate).toLocaleString("en")} firings/s); load average ${load()}`,
  );
  console.log(`ratio: entries/s over firings/s = ${(entryRate / firingRate).toFixed(2)} (target >= 0.8)`);
  while (await stepsQueued()) await sleep(500);

  // 3. Client events without and with entries waiting for their name, both sides in the same state: the
  // users and their identifiers in place and the database vacuumed and analyzed after the earlier phases,
  // a warm-up round first, then the sides in turns (without, with, with, without, without, with), the
  // waiting entries inserted or deleted between sides (and their table vacuumed and analyzed), each round
  // after a checkpoint and once no autovacuum worker runs. Before, "without" ran once before any entry
  // waited and "with" once after it, so each side met whatever the earlier phases left (a vacuum, stale
  // statistics, cold workers) at a different moment. Users enough for both counts, so a small delay phase
  // (BENCH_JOURNEY_ENTRIES) leaves them whole.
  await sql`insert into users (project_id) select ${project.id} from generate_series(1, ${Math.max(EVENTS, WAITING) - ENTRIES})`;
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select project_id, 'default', id::text, id from users where project_id = ${project.id} limit ${EVENTS} on conflict do nothing`;
  const waitJourney = await createWaitJourney(ctx);
  seeding = Date.now();
  await sql.unsafe("vacuum analyze");
  console.log(`events: vacuum analyze after the earlier phases took ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
  let waiting = false;
  async function setWaiting(on: boolean) {
    if (on === waiting) return;
    waiting = on;
    if (on) await insertWaitingEntries(sql, { projectId: project.id, journey: waitJourney, count: WAITING });
    else await sql`delete from journey_entries where project_id = ${project.id} and journey_id = ${waitJourney.id}`;
    await sql`vacuum analyze journey_entries`;
  }
  async function eventsPerSecond() {
    await sql`checkpoint`;
    const until = Date.now() + 60_000;
    while (
      Date.now() < until &&
      (
        await sql`select 1 from pg_stat_activity where backend_type = 'autovacuum worker' and datname = current_database()`
      ).length
    )
      await sleep(500);
    const inserted = Date.now();
    await sql`
      insert into event_intake (project_id, kind, name, identifier, data, occurred_at, received_at)
      select ${project.id}, 'user', 'bench.order', jsonb_build_array(jsonb_build_object('source', 'default', 'external_id', external_id)),
        '{"cart_id": "other"}', now(), now()
      from user_identifiers where project_id = ${project.id} limit ${EVENTS}`;
    while (
      (await sql`select 1 from event_intake where project_id = ${project.id} limit 1`).length ||
      (await stepsQueued())
    )
      await sleep(50);
    return EVENTS / ((Date.now() - inserted) / 1000);
  }
  const warm = await eventsPerSecond();
  console.log(
    `events: warm-up, ${EVENTS.toLocaleString("en")} with no entry waiting: ${Math.round(warm).toLocaleString("en")} events/s`,
  );
  const rates = { without: [] as number[], with: [] as number[] };
  for (const side of ["without", "with", "with", "without", "without", "with"] as const) {
    await setWaiting(side === "with");
    const rate = await eventsPerSecond();
    rates[side].push(rate);
    console.log(
      `events: ${EVENTS.toLocaleString("en")} ${side === "with" ? `with ${WAITING.toLocaleString("en")} entries waiting for the name` : "with no entry waiting"}: ` +
        `${Math.round(rate).toLocaleString("en")} events/s; load average ${load()}`,
    );
  }
  // Each side's events over the time its three rounds took.
  const overall = (r: number[]) => r.length / r.reduce((t, x) => t + 1 / x, 0);
  console.log(
    `events: ${Math.round(overall(rates.with)).toLocaleString("en")} events/s with waits, ${Math.round(overall(rates.without)).toLocaleString("en")} without; ` +
      `ratio ${(overall(rates.with) / overall(rates.without)).toFixed(2)} (target >= 0.9); load average ${load()}`,
  );
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await closeDatabase();
  await db.drop();
}
