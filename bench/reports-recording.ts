import { getDb, getSql } from "../db/client";
import { createApiKey } from "../lib/access/api-keys";
import { linkToken } from "../lib/links/tokens";
import { openPixelPath } from "../lib/reports/open-token";
import { startWorker } from "../scripts/test/worker";
import { catalogue } from "./reports-catalogue";
import type { ReportsEnvironment } from "./reports-environment";
import { CONNECTIONS, load, log, median, ROUNDS, sleep, TRACK } from "./reports-settings";
import { benchProject } from "./harness";

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko)";
/** Messages opened, clicked and events sent before each round is timed, to warm the routes and the worker. */
const WARM = 200;

/** A project for a recording round: `n` users with identifiers, one sent message each of a broadcast. */
async function trackProject(url: string, n: number) {
  const sql = getSql();
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
  const c = await catalogue(url, p);
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
  const [r] = await getSql()<{ empty: boolean }[]>`
    select not exists (select 1 from event_intake where project_id = ${projectId}) as empty`;
  return r!.empty;
}

/**
 * `paths.length` requests, each path once, over CONNECTIONS loops (one request in flight each), then
 * waits until `recorded()` says all were and the intake is empty: things per second over that whole time.
 */
async function rate(
  url: string,
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
        const res = await fetch(url + paths[i]!, {
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

/** One round on a project of its own: client events, then first opens, then first clicks, each timed. */
async function round(url: string) {
  const sql = getSql();
  const t = await trackProject(url, TRACK + WARM);
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
    await fetch(url + eventsPath, { method: "POST", headers: clientHeaders, body: event(0) });
    await fetch(url + pixel(m), { headers: browser });
    await fetch(url + link(m), { headers: browser, redirect: "manual" });
  }
  while (!(await intakeEmpty(t.projectId))) await sleep(100);
  const count = async (q: PromiseLike<{ n: number }[]>) => (await q)[0]!.n;
  const [{ n: eventsBefore }] = await sql<{ n: number }[]>`
    select count(*)::int as n from events where project_id = ${t.projectId} and name = 'Viewed'`;
  const events = await rate(
    url,
    t.projectId,
    "client events (one a request)",
    measured.map(() => eventsPath),
    { method: "POST", headers: clientHeaders, body: event },
    async () =>
      (await count(sql`select count(*)::int as n from events where project_id = ${t.projectId} and name = 'Viewed'`)) -
      eventsBefore,
  );
  // The warm-up's opens and clicks are recorded already: what a phase recorded is the count past them.
  const engaged = (column: "opened_at" | "clicked_at") =>
    count(sql`select (count(*) - ${WARM})::int as n from message_engagement
      where project_id = ${t.projectId} and ${sql(column)} is not null`);
  const opens = await rate(url, t.projectId, "opens (pixel fetches)", measured.map(pixel), { headers: browser }, () =>
    engaged("opened_at"),
  );
  const clicks = await rate(url, t.projectId, "clicks (tracked links)", measured.map(link), { headers: browser }, () =>
    engaged("clicked_at"),
  );
  return {
    events,
    opens,
    clicks,
    opensRatio: opens.perSecond / events.perSecond,
    clicksRatio: clicks.perSecond / events.perSecond,
  };
}

/**
 * Recording opens and clicks against client events, with the same web and one worker (default pool),
 * `ROUNDS` rounds, each on a fresh project: each figure printed is the median of the rounds'.
 */
export async function recording(env: ReportsEnvironment) {
  const worker = await startWorker(env.db.url, { DATABASE_POOL_SIZE: "10" });
  try {
    const rounds: Awaited<ReturnType<typeof round>>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push(await round(env.url));
      const last = rounds.at(-1)!;
      log(
        `recording round ${r + 1} of ${ROUNDS}: opens ${last.opensRatio.toFixed(2)}, clicks ${last.clicksRatio.toFixed(2)} of client events (load ${load()})`,
      );
    }
    const of = (f: (x: (typeof rounds)[number]) => number) => median(rounds.map(f));
    const events = of((x) => x.events.perSecond);
    console.log("| recorded | per second | over client events (target >= 0.5) |");
    console.log("| --- | --- | --- |");
    console.log(`| client events, one a request | ${events.toFixed(0)} | 1 |`);
    console.log(`| opens | ${of((x) => x.opens.perSecond).toFixed(0)} | ${of((x) => x.opensRatio).toFixed(2)} |`);
    console.log(`| clicks | ${of((x) => x.clicks.perSecond).toFixed(0)} | ${of((x) => x.clicksRatio).toFixed(2)} |`);
    return { rounds, opensRatio: of((x) => x.opensRatio), clicksRatio: of((x) => x.clicksRatio) };
  } finally {
    await worker.stop();
  }
}
