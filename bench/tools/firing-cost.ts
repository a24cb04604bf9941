import { readdirSync, readFileSync } from "node:fs";
import { closeDatabase, getDb } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { drainIntake } from "../../lib/pipeline/drain-intake";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { ensureSchedule } from "../../lib/schedules/definitions";
import { fireDueFirings } from "../../lib/schedules/fire-due";
import { getBoss, stopBoss } from "../../lib/queue/boss";
import { advanceDueEntries } from "../../lib/journeys/advance-due";
import { createDelayJourney, insertDelayedEntries } from "../journey-fixtures";
import { benchDatabase } from "../harness";

/*
 * What one firing costs the database beside what one client event costs, in process, with nothing else
 * running: WAL bytes, WAL records and full-page images (pg_stat_wal), PostgreSQL CPU (the server's
 * processes, from /proc, so the server must be this machine's and best a private one that nothing else
 * uses: TEST_DATABASE_URL) and this process's CPU, per row. Firings: COUNT single-schedule firings due
 * now, fired by the firing loop's batches (SCHEDULE_BATCH), then the intake drained (whatever the firings
 * handed over). Client events: COUNT intake rows of the same users, by identifier, drained. A checkpoint
 * starts each phase, so both pay their first touch of each page alike. Delay exits (the journeys bench's
 * burst): COUNT entries at a delay that has ended, moved on to an exit by the due loop's batches
 * (JOURNEY_BATCH), then the intake drained. `STATEMENTS=1` lists the top
 * statements by WAL (needs pg_stat_statements preloaded).
 */
const COUNT = Number(process.env.COUNT ?? 20_000);
const BATCH = Number(process.env.SCHEDULE_BATCH ?? 1000);
const INTAKE = Number(process.env.INTAKE_BATCH ?? 2000);
const JOURNEY_BATCH = Number(process.env.JOURNEY_BATCH ?? 1000);

const { db, sql } = await benchDatabase("relay_firing_cost");

/** CPU seconds of every process of the server whose postmaster has this pid (its children). */
function serverCpu(postmaster: number): number {
  const hz = 100;
  let ticks = 0;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) === postmaster || Number(p) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  return ticks / hz;
}

try {
  // The server's postmaster: its children are the server's processes (superuser reads the data directory).
  const [{ pid }] = await sql`select split_part(pg_read_file('postmaster.pid'), E'\n', 1)::int as pid`;
  const postmaster = Number(pid);
  const statements = process.env.STATEMENTS === "1";
  if (statements) await sql`create extension if not exists pg_stat_statements`;
  // PREP_SQL: run on the fresh database first (a storage setting to compare, say).
  if (process.env.PREP_SQL) await sql.unsafe(process.env.PREP_SQL);
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    {
      orgName: "cost",
      projectName: "firings",
      ownerEmail: "cost@example.com",
    },
  );
  const schedule = await ensureSchedule(systemContext(getDb(), project.id), { name: "cost", type: "single" });
  await sql`
    with u as (insert into users (project_id) select ${project.id} from generate_series(1, ${COUNT}) returning project_id, id),
    a as (insert into schedule_assignments (project_id, schedule_id, user_id, anchor, occurrence_at, data)
          select u.project_id, ${schedule.id}, u.id, now(), now(), '{"bench": true}' from u returning project_id, id, schedule_id)
    insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at)
    select a.project_id, a.id, o.id, 0, now() - interval '1 second'
    from a join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id`;
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select project_id, 'default', id::text, id from users where project_id = ${project.id}`;
  await sql`analyze`;
  // pg-boss creates its schema on first use: not part of either measure.
  await getBoss();

  async function measure(label: string, rows: number, work: () => Promise<void>) {
    await sql`checkpoint`;
    if (statements) await sql`select pg_stat_statements_reset()`;
    const [{ lsn: lsn0 }] = await sql`select pg_current_wal_insert_lsn()::text as lsn`;
    const [w0] =
      await sql`select wal_records::bigint as r, wal_fpi::bigint as f, wal_bytes::bigint as b from pg_stat_wal`;
    const pg0 = serverCpu(postmaster);
    const js0 = process.cpuUsage();
    const t0 = Date.now();
    await work();
    const wall = (Date.now() - t0) / 1000;
    const js = process.cpuUsage(js0);
    const pg = serverCpu(postmaster) - pg0;
    const [w1] =
      await sql`select wal_records::bigint as r, wal_fpi::bigint as f, wal_bytes::bigint as b from pg_stat_wal`;
    const [{ lsn: lsn1 }] = await sql`select pg_current_wal_insert_lsn()::text as lsn`;
    // pg_waldump --stats=record -s <from> -e <to> on the server's pg_wal breaks this down by record type.
    if (process.env.LSN === "1") console.log(`  ${label} WAL from ${lsn0} to ${lsn1}`);
    const per = (x: number) => x / rows;
    const out = {
      walBytes: per(Number(w1!.b) - Number(w0!.b)),
      walRecords: per(Number(w1!.r) - Number(w0!.r)),
      fpi: per(Number(w1!.f) - Number(w0!.f)),
      pgCpuUs: per(pg * 1e6),
      jsCpuUs: per(js.user + js.system),
    };
    console.log(
      `${label}: ${rows.toLocaleString("en")} rows in ${wall.toFixed(1)} s; per row: WAL ${out.walBytes.toFixed(0)} B, ` +
        `${out.walRecords.toFixed(2)} records, ${out.fpi.toFixed(3)} FPI; PostgreSQL CPU ${out.pgCpuUs.toFixed(0)} µs, ` +
        `this process ${out.jsCpuUs.toFixed(0)} µs`,
    );
    if (statements) {
      const top =
        await sql`select calls, rows, round(total_exec_time)::int as ms, wal_bytes::bigint as wal, wal_fpi, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as q
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by wal_bytes desc, total_exec_time desc limit 8`;
      for (const s of top)
        console.log(
          `  ${String(s.calls).padStart(5)} calls ${String(s.ms).padStart(6)} ms  WAL ${(Number(s.wal) / rows).toFixed(0).padStart(5)} B/row  ${s.q}`,
        );
    }
    return out;
  }

  const firing = await measure("firings", COUNT, async () => {
    while ((await fireDueFirings({ db: getDb() }, { batchSize: BATCH })).claimed > 0);
    while ((await drainIntake({ db: getDb() }, { limit: INTAKE })) > 0);
  });
  const [{ fired }] =
    await sql`select count(*)::int as fired from schedule_firings where project_id = ${project.id} and state = 'fired'`;
  if (fired !== COUNT) throw new Error(`${fired} of ${COUNT} firings fired`);

  const journey = await createDelayJourney(systemContext(getDb(), project.id));
  // Due a second ago, having come to the delay now: a day's delay that has ended, as far as the walk sees.
  await insertDelayedEntries(sql, { projectId: project.id, journey, wakeAt: new Date(Date.now() - 1000) });
  await sql`analyze journey_entries`;
  const exit = await measure("delay exits", COUNT, async () => {
    while ((await advanceDueEntries({ db: getDb() }, { batchSize: JOURNEY_BATCH })).claimed > 0);
    while ((await drainIntake({ db: getDb() }, { limit: INTAKE })) > 0);
  });
  const [{ exited }] =
    await sql`select count(*)::int as exited from journey_entries where project_id = ${project.id} and state = 'exited'`;
  if (exited !== COUNT) throw new Error(`${exited} of ${COUNT} entries exited`);

  await sql`
    insert into event_intake (project_id, kind, name, identifier, data, occurred_at, received_at)
    select ${project.id}, 'user', 'cost.client', jsonb_build_array(jsonb_build_object('source', 'default', 'external_id', id::text)),
      '{"bench": true}', now(), now()
    from users where project_id = ${project.id}`;
  const event = await measure("client events", COUNT, async () => {
    while ((await drainIntake({ db: getDb() }, { limit: INTAKE })) > 0);
  });
  console.log(
    `delay exit over firing: WAL ${(exit.walBytes / firing.walBytes).toFixed(2)}×, PostgreSQL CPU ${(exit.pgCpuUs / firing.pgCpuUs).toFixed(2)}×, ` +
      `this process ${(exit.jsCpuUs / firing.jsCpuUs).toFixed(2)}×, both CPUs ${((exit.pgCpuUs + exit.jsCpuUs) / (firing.pgCpuUs + firing.jsCpuUs)).toFixed(2)}×`,
  );
  console.log(
    `firing over event: WAL ${(firing.walBytes / event.walBytes).toFixed(2)}×, PostgreSQL CPU ${(firing.pgCpuUs / event.pgCpuUs).toFixed(2)}×, ` +
      `this process ${(firing.jsCpuUs / event.jsCpuUs).toFixed(2)}×, both CPUs ${((firing.pgCpuUs + firing.jsCpuUs) / (event.pgCpuUs + event.jsCpuUs)).toFixed(2)}×`,
  );
} finally {
  await stopBoss();
  await closeDatabase();
  await db.drop();
}
