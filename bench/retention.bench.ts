import { loadavg } from "node:os";
import { getDb, getSql } from "../db/client";
import { createWeekPartition, ensureEventPartitions, weekStart } from "../lib/events/partitions";
import { purgeExpiredEvents } from "../lib/events/retention";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { benchEnvironment, postEvents } from "./harness";

/*
 * Retention under load (issue 36), against the built app under `next start` on a fresh database laid out
 * as after twelve weeks of use:
 * - BENCH_EVENTS (default 10,000,000) events of one project with a 28-day retention: the older half spread
 *   over the weeks 11 to 6 before this one (expired), the newer half over the last 21 days.
 * - BENCH_KEEPER=1 adds one event per old week of a second project that keeps events forever, so no old
 *   partition can be dropped and the whole older half goes by batched deletes.
 * Then POST /api/client/users/events in batches of 100 (16 connections, BENCH_SECONDS, default 10), once
 * alone and once while the purge (lib/events/retention.ts, what the worker runs every RETENTION_INTERVAL)
 * removes the older half: accepted events/s with the purge over without it (target >= 0.8), and the
 * table's size on disk after the purge over before (target <= 60 %).
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const KEEPER = process.env.BENCH_KEEPER === "1";
const DAY = 86_400_000;
const WEEK = 7 * DAY;

const env = await benchEnvironment("retention");
const sql = getSql();
try {
  const thisWeek = weekStart(new Date());
  const weekAgo = (n: number) => new Date(thisWeek.getTime() - n * WEEK);
  // As if partitioning started twelve weeks ago; the weeks since then exist (the worker made them).
  await sql`alter table events detach partition events_before`;
  await sql.unsafe(
    `alter table events attach partition events_before for values from (minvalue) to ('${weekAgo(12).toISOString()}')`,
  );
  for (let w = 12; w >= 1; w--) await createWeekPartition({ db: getDb() }, weekAgo(w));
  await ensureEventPartitions({ db: getDb() });
  await sql`update projects set event_retention_days = 28 where id = ${env.projectId}`;

  const seeded = Date.now();
  const half = Math.floor(EVENTS / 2);
  const chunk = 1_000_000;
  const seed = async (n: number, from: Date, to: Date) => {
    for (let done = 0; done < n; done += chunk) {
      const k = Math.min(chunk, n - done);
      await sql`
        insert into events (project_id, name, user_id, data, origin, occurred_at, received_at)
        select ${env.projectId}::uuid, 'e' || (g % 10), gen_random_uuid(), jsonb_build_object('n', g, 'plan', 'team'), 'client',
          ${from.toISOString()}::timestamptz + (g::float8 / ${k}) * (${to.toISOString()}::timestamptz - ${from.toISOString()}::timestamptz),
          now()
        from generate_series(1, ${k}) g`;
    }
  };
  await seed(half, weekAgo(11), weekAgo(6));
  await seed(EVENTS - half, new Date(Date.now() - 21 * DAY), new Date());
  if (KEEPER) {
    const { project } = await createProjectWithOwner(
      { db: getDb() },
      { orgName: "keeper", projectName: "keeper", ownerEmail: "keeper@example.com" },
    );
    for (let w = 11; w >= 6; w--)
      await sql`insert into events (project_id, name, occurred_at) values (${project.id}, 'kept', ${new Date(weekAgo(w).getTime() + DAY).toISOString()})`;
  }
  await sql`vacuum analyze events`;
  const size = async () =>
    Number(
      (
        await sql`select sum(pg_total_relation_size(relid))::bigint as b from pg_partition_tree('events') where isleaf`
      )[0]!.b,
    );
  const before = await size();
  console.log(
    `seeded ${EVENTS.toLocaleString("en")} events (half expired) in ${((Date.now() - seeded) / 1000).toFixed(0)} s; ` +
      `events on disk ${(before / 2 ** 20).toFixed(0)} MiB${KEEPER ? "; a forever-retention project keeps every old week" : ""}`,
  );

  let n = 0;
  const body = () =>
    JSON.stringify(
      Array.from({ length: 100 }, () => ({
        name: "bench",
        identifier: [{ external_id: `u-${n++ % 1000}` }],
        data: { n },
      })),
    );
  const ingest = () => postEvents(env, body, { connections: 16, duration: SECONDS });
  await ingest(); // warm-up, unmeasured
  const alone = await ingest();
  const purgeStart = Date.now();
  let purgeEnd = 0;
  const purging = purgeExpiredEvents({ db: getDb() }).then((r) => {
    purgeEnd = Date.now();
    return r;
  });
  const during = await ingest();
  const purged = await purging;
  const after = await size();
  const rate = (r: Awaited<ReturnType<typeof ingest>>) => r.rps * 100;
  console.log(
    `ingestion alone: ${Math.round(rate(alone)).toLocaleString("en")} events/s (p99 ${alone.p99} ms, non-2xx ${alone.non2xx})`,
  );
  console.log(
    `ingestion while purging: ${Math.round(rate(during)).toLocaleString("en")} events/s (p99 ${during.p99} ms, non-2xx ${during.non2xx}); ` +
      `ratio ${(rate(during) / rate(alone)).toFixed(2)} (target >= 0.8)`,
  );
  console.log(
    `purge: ${purged.dropped.length} partitions dropped, ${purged.deleted.toLocaleString("en")} rows deleted in batches, ` +
      `${((purgeEnd - purgeStart) / 1000).toFixed(1)} s (the load ran ${SECONDS} s from its start)`,
  );
  console.log(
    `events on disk after the purge: ${(after / 2 ** 20).toFixed(0)} MiB = ${((after / before) * 100).toFixed(0)} % of before (target <= 60 %), ` +
      `the ingested events included; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
} finally {
  await env.close();
}
