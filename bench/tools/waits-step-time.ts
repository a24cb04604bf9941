import { closeDatabase, getDb, getSql } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { drainIntake } from "../../lib/pipeline/drain-intake";
import { runJourneysSteps } from "../../lib/pipeline/step-jobs";
import { createTestDatabase } from "../../scripts/test/database";
import { createWaitJourney, insertWaitingEntries } from "../journey-fixtures";

/*
 * In process, one connection's wall time: the intake drain's batches (INTAKE_BATCH, 2,000) of `EVENTS`
 * (20,000) client events, once named for no wait and once for the `WAITING` (100,000) entries waiting
 * (keyed by same_as, none released), and then the pipeline.journeys jobs those batches queued, run as
 * the worker runs them (five jobs merged). EXPLAIN=1 logs the plans of statements over 5 ms with their
 * actual times in the server's log (auto_explain).
 */
const EVENTS = Number(process.env.EVENTS ?? 20_000);
const WAITING = Number(process.env.WAITING ?? 100_000);
const BATCH = Number(process.env.INTAKE_BATCH ?? 2000);
const db = await createTestDatabase("relay_bench_waits");
process.env.DATABASE_URL = db.url;
if (process.env.EXPLAIN) {
  // Plans of the statements over 5 ms, with actual times, in the server's log (auto_explain).
  const admin = (await import("postgres")).default(db.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`alter database "${db.name}" set session_preload_libraries = 'auto_explain'`);
  await admin.unsafe(`alter database "${db.name}" set auto_explain.log_min_duration = 5`);
  await admin.unsafe(`alter database "${db.name}" set auto_explain.log_analyze = on`);
  await admin.end();
}
const sql = getSql();
try {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "waits", ownerEmail: "bench@example.com" },
  );
  const ctx = systemContext(getDb(), project.id);
  const j = await createWaitJourney(ctx);
  await sql`insert into users (project_id) select ${project.id} from generate_series(1, ${Math.max(EVENTS, WAITING)})`;
  await sql`insert into user_identifiers (project_id, source, external_id, user_id)
    select project_id, 'default', id::text, id from users where project_id = ${project.id} limit ${EVENTS}`;
  await insertWaitingEntries(sql, { projectId: project.id, journey: j, count: WAITING });
  await sql.unsafe("vacuum analyze");
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const round of [1, 2])
    for (const name of ["bench.other", "bench.order"]) {
      await sql`
        insert into event_intake (project_id, kind, name, identifier, data, occurred_at, received_at)
        select ${project.id}, 'user', ${name}, jsonb_build_array(jsonb_build_object('source', 'default', 'external_id', external_id)),
          '{"cart_id": "other"}', now(), now()
        from user_identifiers where project_id = ${project.id} limit ${EVENTS}`;
      const drain: number[] = [];
      for (;;) {
        const t = performance.now();
        const n = await drainIntake({ db: getDb() }, { limit: BATCH });
        if (!n) break;
        drain.push(performance.now() - t);
      }
      const jobs = await sql<
        {
          id: string;
          data: { projectId: string; batchId: string; names: string[]; eventIds: string[]; since?: string };
        }[]
      >`
        select id, data from pgboss.job where name = 'pipeline.journeys' and state = 'created' order by created_on`;
      const step: number[] = [];
      for (let i = 0; i < jobs.length; i += 5) {
        const group = jobs.slice(i, i + 5);
        const t = performance.now();
        await runJourneysSteps(
          { db: getDb() },
          group.map((g) => g.data),
        );
        step.push(performance.now() - t);
      }
      await sql`delete from pgboss.job where name like 'pipeline.%' and state = 'created'`;
      console.log(
        `round ${round} ${name}: drain ${drain.length} batches, median ${median(drain).toFixed(1)} ms, sum ${drain.reduce((a, b) => a + b, 0).toFixed(0)} ms; ` +
          `journeys ${jobs.length} jobs in ${step.length} runs, ${step.length ? `median ${median(step).toFixed(1)} ms, sum ${step.reduce((a, b) => a + b, 0).toFixed(0)} ms` : "none"}`,
      );
    }
} finally {
  await closeDatabase();
  await db.drop();
  process.exit(0);
}
