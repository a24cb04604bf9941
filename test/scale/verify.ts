import type postgres from "postgres";
import { waitFor } from "../../scripts/test/worker";
import { FAN_COHORT, SCHEDULE_NAME, type Ledger } from "./load";

/**
 * True once the workers have done everything the project's accepted work leads to: intake drained, no
 * pg-boss job of the project waiting, retrying or running, no fan-out open, no firing due and unfired.
 */
export async function settled(sql: postgres.Sql, projectId: string): Promise<boolean> {
  const [row] = await sql`select
    exists (select 1 from event_intake where project_id = ${projectId} and failed_at is null) as intake,
    exists (select 1 from pgboss.job where state in ('created', 'retry', 'active') and data->>'projectId' = ${projectId}) as jobs,
    exists (select 1 from event_fanouts where project_id = ${projectId} and finished_at is null) as fanouts,
    exists (select 1 from schedule_firings where project_id = ${projectId} and state = 'pending' and fire_at <= now()) as firings`;
  return !row!.intake && !row!.jobs && !row!.fanouts && !row!.firings;
}

export async function waitSettled(sql: postgres.Sql, projectId: string, timeoutMs = 60_000) {
  // Twice in a row a moment apart: a job can be inserted by the transaction that finishes another.
  const trace = process.env.SCALE_TRACE
    ? setInterval(() => void pending(sql, projectId).then((p) => console.log("[settle]", JSON.stringify(p))), 3000)
    : undefined;
  try {
    await waitFor(
      async () =>
        (await settled(sql, projectId)) &&
        (await new Promise((r) => setTimeout(r, 500)), await settled(sql, projectId)),
      timeoutMs,
      "the pipeline to settle",
    );
  } catch (err) {
    // Say what is still pending, so a failure on a machine we cannot log into names its cause.
    throw new Error(`${(err as Error).message}; still pending: ${JSON.stringify(await pending(sql, projectId))}`);
  } finally {
    clearInterval(trace);
  }
}

/** What keeps the project from settling: intake rows, jobs by queue and state, open fan-outs, due firings. */
export async function pending(sql: postgres.Sql, projectId: string) {
  const [intake] =
    await sql`select count(*)::int as n, min(received_at)::text as oldest from event_intake where project_id = ${projectId} and failed_at is null`;
  const jobs =
    await sql`select name, state, count(*)::int as n, max(retry_count)::int as retries, min(start_after)::text as start_after,
      max(left(output::text, 300)) as output
    from pgboss.job where state in ('created', 'retry', 'active') and data->>'projectId' = ${projectId} group by 1, 2`;
  // A job left active: whether its heartbeat went stale (then only pg-boss's supervision can retry it) and
  // when supervision last claimed its queue.
  const active = await sql`select j.name, j.id, j.started_on::text, j.heartbeat_on::text, j.heartbeat_seconds,
      q.monitor_on::text, q.monitor_claim_on::text
    from pgboss.job j join pgboss.queue q on q.name = j.name
    where j.state = 'active' and j.data->>'projectId' = ${projectId} and j.started_on < now() - interval '30 seconds' limit 5`;
  const fanouts =
    await sql`select id, delivered, planned, received_at::text from event_fanouts where project_id = ${projectId} and finished_at is null limit 5`;
  const [firings] =
    await sql`select count(*)::int as n, min(fire_at)::text as oldest from schedule_firings where project_id = ${projectId} and state = 'pending' and fire_at <= now()`;
  // Who is working or waiting on the database right now (a hung handler shows here with its lock wait).
  const busy = await sql`select application_name as app, state, wait_event_type as wait_type, wait_event as wait,
      extract(epoch from now() - xact_start)::int as xact_s, left(query, 160) as query
    from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`;
  return { now: new Date().toISOString(), intake, jobs, active, fanouts, firings, busy };
}

/**
 * Holds the database to the ledger. Returns every broken promise as a sentence (empty when all hold), so a
 * failure names what went wrong instead of one mismatched number.
 */
export async function verifyLedger(
  sql: postgres.Sql,
  projectId: string,
  ledger: Ledger,
  ids: { listId: string; journeyId: string },
): Promise<string[]> {
  const problems: string[] = [];
  const report = (what: string, items: unknown[]) =>
    items.length && problems.push(`${what} (${items.length}): ${JSON.stringify(items.slice(0, 5))}`);

  // 1. Every event answered 202 recorded exactly once; nothing recorded that was refused; nothing twice.
  const recorded = await sql<{ key: string; n: number }[]>`
    select name || ':' || (data->>'seq') as key, count(*)::int as n from events
    where project_id = ${projectId} and name in ('Purchased', 'Viewed') group by 1`;
  const seen = new Map(recorded.map((r) => [r.key, r.n]));
  report(
    "accepted events never recorded",
    [...ledger.accepted].filter((k) => !seen.has(k)),
  );
  report(
    "events recorded more than once",
    recorded.filter((r) => r.n > 1),
  );
  report(
    "events recorded that were never accepted",
    recorded.filter((r) => !ledger.accepted.has(r.key) && !ledger.uncertain.has(r.key)).map((r) => r.key),
  );

  // 2. Every accepted match event reached each of the cohort once; every fan-out finished.
  const fans = await sql<{ seq: string; n: number; d: number }[]>`
    select data->>'seq' as seq, count(*)::int as n, count(distinct user_id)::int as d from events
    where project_id = ${projectId} and name = 'Promo' group by 1`;
  const fanSeen = new Map(fans.map((f) => [Number(f.seq), f]));
  report(
    "accepted match events not delivered to the whole cohort once",
    [...ledger.fanAccepted]
      .filter((s) => fanSeen.get(s)?.n !== FAN_COHORT || fanSeen.get(s)?.d !== FAN_COHORT)
      .map((s) => ({ seq: s, got: fanSeen.get(s) ?? null })),
  );
  report(
    "match events delivered partly or twice",
    fans.filter((f) => f.n !== FAN_COHORT || f.d !== FAN_COHORT),
  );
  report(
    "match events delivered that were never accepted",
    fans.filter((f) => !ledger.fanAccepted.has(Number(f.seq)) && !ledger.fanUncertain.has(Number(f.seq))),
  );
  const [open] =
    await sql`select count(*)::int as n from event_fanouts where project_id = ${projectId} and (finished_at is null or delivered <> ${FAN_COHORT})`;
  if (open!.n) problems.push(`${open!.n} fan-outs unfinished or with a wrong delivered count`);

  // 3. Every upserted identifier names one user, and every user of the project was created once.
  const known = new Set(
    (
      await sql<{ external_id: string }[]>`select external_id from user_identifiers where project_id = ${projectId}`
    ).map((r) => r.external_id),
  );
  report(
    "upserted users missing",
    [...ledger.upserted].filter((id) => !known.has(id)),
  );
  const created = await sql`
    select u.id, (select count(*)::int from events e where e.project_id = u.project_id and e.user_id = u.id and e.name = 'user.created') as n
    from users u where u.project_id = ${projectId}`;
  report(
    "users without exactly one user.created",
    created.filter((r) => r.n !== 1),
  );
  const [dupIds] =
    await sql`select count(*)::int as n from (select 1 from user_identifiers where project_id = ${projectId} group by source, external_id having count(*) > 1) d`;
  if (dupIds!.n) problems.push(`${dupIds!.n} identifiers name more than one user`);

  // 4. The dynamic list holds exactly the buyers, each added (and announced) once.
  const [list] = await sql`select
      (select count(distinct user_id)::int from events where project_id = ${projectId} and name = 'Purchased') as buyers,
      (select count(*)::int from list_members where project_id = ${projectId} and list_id = ${ids.listId}) as members,
      (select count(*)::int from list_members m where m.project_id = ${projectId} and m.list_id = ${ids.listId}
        and not exists (select 1 from events e where e.project_id = m.project_id and e.user_id = m.user_id and e.name = 'Purchased')) as strays,
      (select count(*)::int from events where project_id = ${projectId} and name = 'list.user.added' and data->>'list_id' = ${ids.listId}) as added,
      (select count(distinct user_id)::int from events where project_id = ${projectId} and name = 'list.user.added' and data->>'list_id' = ${ids.listId}) as added_users`;
  if (
    list!.members !== list!.buyers ||
    list!.strays ||
    list!.added !== list!.members ||
    list!.added_users !== list!.members
  ) {
    problems.push(`list effects not once: ${JSON.stringify(list)}`);
  }

  // 5. Every recorded Purchased event entered its user into the journey exactly once.
  const [journey] = await sql`select
      (select count(*)::int from events e where e.project_id = ${projectId} and e.name = 'Purchased'
        and not exists (select 1 from journey_entries j where j.project_id = e.project_id and j.journey_id = ${ids.journeyId} and j.event_id = e.id)) as missing,
      (select count(*)::int from (select 1 from journey_entries where project_id = ${projectId} and journey_id = ${ids.journeyId} group by event_id having count(*) > 1) d) as doubled,
      (select count(*)::int from journey_entries where project_id = ${projectId} and journey_id = ${ids.journeyId}) as entries,
      (select count(*)::int from events where project_id = ${projectId} and name = 'Purchased') as purchases`;
  if (journey!.missing || journey!.doubled || journey!.entries !== journey!.purchases)
    problems.push(`journey effects not once: ${JSON.stringify(journey)}`);

  // 6. Every schedule assignment due during the run fired exactly once.
  const fired = new Map(
    (
      await sql<{ external_id: string; n: number }[]>`
      select i.external_id, count(*)::int as n from events e join user_identifiers i on i.project_id = e.project_id and i.user_id = e.user_id
      where e.project_id = ${projectId} and e.name = ${`scheduled.${SCHEDULE_NAME}`} group by 1`
    ).map((r) => [r.external_id, r.n]),
  );
  report(
    "due assignments that did not fire exactly once",
    [...ledger.assigned.keys()].filter((id) => fired.get(id) !== 1).map((id) => ({ id, fired: fired.get(id) ?? 0 })),
  );
  report(
    "firings of assignments never accepted, or fired twice",
    [...fired].filter(([id, n]) => n > 1 || (!ledger.assigned.has(id) && !ledger.assignUncertain.has(id))),
  );

  // 7. Nothing set aside, nothing failed for good.
  const [stuck] = await sql`select
      (select count(*)::int from event_intake where project_id = ${projectId}) as intake,
      (select count(*)::int from pgboss.job where state = 'failed' and data->>'projectId' = ${projectId}) as failed_jobs`;
  if (stuck!.intake || stuck!.failed_jobs) {
    // Why, so a failure on a machine we cannot log into names its cause.
    const why = await sql`select name, error, count(*)::int as n from event_intake where project_id = ${projectId}
      group by 1, 2 order by 3 desc limit 3`;
    problems.push(`left behind: ${JSON.stringify(stuck)}; set aside: ${JSON.stringify(why)}`);
  }
  return problems;
}
