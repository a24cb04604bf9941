import { generateKeyPairSync, sign } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { loadavg } from "node:os";
import nodemailer from "nodemailer";
import { getDb, getSql } from "../db/client";
import { systemContext } from "../lib/access/context";
import { createBroadcast } from "../lib/broadcasts/create-broadcast";
import { createBroadcastBody } from "../lib/broadcasts/schemas";
import { bounceAddress } from "../lib/messages/bounce-address";
import { freePort, TEST_AUTH_SECRET } from "../scripts/test/next-server";
import { dsnMail } from "../scripts/test/report-mails";
import { startWorker, type TestWorker, waitFor } from "../scripts/test/worker";
import { eventsBody } from "./bodies";
import { startCountingSink } from "./counting-sink";
import { newsletterList, newsletterSetup } from "./newsletter";
import { benchEnvironment, load, postEvents } from "./harness";

/*
 * After the send (issue 56), on the built app and one real worker with their default settings:
 * 1. webhooks: BENCH_FEEDBACK_EVENTS (100,000) SendGrid `delivered` events, signed as SendGrid signs, in
 *    posts of 100 about as many sent messages (seeded in SQL), 16 connections; events recorded/s (a post
 *    is answered once its events are committed) over client events, as many in batches of 100 through
 *    `POST /users/events` on the same web and worker: accepted/s (the ratio, target ≥ 0.5) and
 *    recorded/s (until the intake is empty).
 * 2. dsns: BENCH_DSNS (10,000) RFC 3464 hard bounces, each to its message's bounce address, through the
 *    worker's inbound SMTP port (8 connections, under its 10 per peer); seconds until every one is
 *    recorded (target ≤ 60 s).
 * 3. broadcast: a broadcast of the broadcast bench's template (bench/newsletter.ts) to BENCH_BROADCAST_USERS
 *    (20,000) through the project's SMTP provider pointed at a counting smtp-server in its own process, with no suppressions, with as many suppressions as a
 *    tenth of the list naming none of it, and with a tenth of its recipients suppressed; recipients
 *    finished/s of each (target: the check costs ≤ 5 %, ratio ≥ 0.95).
 * BENCH_ROUNDS (3) rounds of each; medians. BENCH_FEEDBACK_PHASES (webhooks,dsns,broadcast) picks phases.
 * Writes bench/results/feedback.json.
 */
const EVENTS = Number(process.env.BENCH_FEEDBACK_EVENTS ?? 100_000);
const DSNS = Number(process.env.BENCH_DSNS ?? 10_000);
const BROADCAST_USERS = Number(process.env.BENCH_BROADCAST_USERS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PHASES = new Set((process.env.BENCH_FEEDBACK_PHASES ?? "webhooks,dsns,broadcast").split(","));
const CONNECTIONS = 16;
const PER_POST = 100;
/** Seconds a post may take (autocannon's default, 10, counted slow posts on a loaded machine as errors). */
const REQUEST_TIMEOUT = 120;
const BOUNCE_DOMAIN = "bounces.bench.test";
// The server, the worker and this process seal and sign with one secret (the provider's sealed feedback
// setting, the bounce addresses' MAC); harness.ts's server takes the test secret.
process.env.AUTH_SECRET = TEST_AUTH_SECRET;
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";
// One caller address posts everything here; SendGrid posts from many, each under the anonymous budget.
process.env.RATE_LIMIT_IP = "1000000:1000000";
process.env.RATE_LIMIT_WEBHOOK = "1000000:1000000";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");
const seconds = (since: number) => (performance.now() - since) / 1000;

const env = await benchEnvironment("feedback");
const sql = getSql();
const ctx = systemContext(getDb(), env.projectId);
const sink = await startCountingSink();
let worker: TestWorker | undefined;
const results: Record<string, unknown> = {};
try {
  const inboundPort = await freePort();
  const sendgrid = generateKeyPairSync("ec", { namedCurve: "P-256" });
  // The broadcast bench's provider, group and template (bench/newsletter.ts), with SendGrid's webhook key.
  const { provider, template } = await newsletterSetup(ctx, {
    url: `smtp://127.0.0.1:${sink.port}?tls=none`,
    feedback: {
      kind: "sendgrid",
      public_key: sendgrid.publicKey.export({ format: "der", type: "spki" }).toString("base64"),
    },
  });

  /** `n` users with an address each and one sent message of the template to each: the reports' subjects. */
  async function sentMessages(prefix: string, n: number): Promise<string[]> {
    const rows = await sql<{ id: string }[]>`
      with u as (insert into users (project_id, email)
        select ${env.projectId}, ${prefix}::text || '-' || g || '@bench.test' from generate_series(1, ${n}) g
        returning id, email)
      insert into messages (project_id, template_id, user_id, channel, state, recipient, attempts, finished_at)
      select ${env.projectId}, ${template.id}, u.id, 'email', 'sent', u.email, 1, now() from u
      returning id`;
    return rows.map((r) => r.id);
  }
  const intakeDrained = (what: string) =>
    waitFor(async () => (await sql`select 1 from event_intake limit 1`).length === 0, 600_000, what);

  const t0 = performance.now();
  const webhookIds = PHASES.has("webhooks") ? await sentMessages("wh", EVENTS * ROUNDS) : [];
  const dsnIds = PHASES.has("dsns") ? await sentMessages("dsn", DSNS * ROUNDS) : [];
  await sql`vacuum analyze users, messages`;
  console.log(`seeded ${fmt(webhookIds.length + dsnIds.length)} sent messages in ${seconds(t0).toFixed(1)} s`);

  worker = await startWorker(env.db.url, {
    AUTH_URL: "https://relay.bench.test",
    BOUNCE_DOMAIN,
    INBOUND_SMTP_PORT: String(inboundPort),
    // The worker's own default pool (scripts/test/worker.ts gives test workers 4).
    DATABASE_POOL_SIZE: "10",
  });
  console.log(
    `loadavg ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );

  if (PHASES.has("webhooks")) {
    const rows: { client: number; clientRecorded: number; webhooks: number; drained: number }[] = [];
    const posts = Math.ceil(EVENTS / PER_POST);
    for (let round = 0; round < ROUNDS; round++) {
      // Client events: accepted/s over the posts, recorded/s until the worker has emptied the intake.
      let start = performance.now();
      const client = await postEvents(env, eventsBody, {
        connections: CONNECTIONS,
        amount: posts,
        timeout: REQUEST_TIMEOUT,
      });
      // Rates by the wall clock over the whole load: autocannon's own rps is a mean of one-second buckets,
      // which a load of a few seconds quantizes (two posts' worth of seconds read as half the rate).
      const clientSeconds = seconds(start);
      if (client.non2xx || client.errors)
        throw new Error(`client events: ${client.non2xx} non-2xx, ${client.errors} errors`);
      await intakeDrained("client events recorded");
      const clientRecorded = (posts * PER_POST) / seconds(start);

      // The webhook posts, signed before the clock starts (the signing is SendGrid's work, not Relay's).
      const ids = webhookIds.slice(round * EVENTS, (round + 1) * EVENTS);
      const ts = String(Math.floor(Date.now() / 1000));
      const signed = Array.from({ length: posts }, (_, i) => {
        const body = JSON.stringify(
          ids.slice(i * PER_POST, (i + 1) * PER_POST).map((id, k) => ({
            email: `wh@bench.test`,
            timestamp: Number(ts),
            "smtp-id": `<${id}@relay.bench.test>`,
            event: "delivered",
            response: "250 2.0.0 OK",
            sg_event_id: `ev-${round}-${i}-${k}`,
            sg_message_id: `sg-${id}`,
          })),
        );
        const signature = sign("sha256", Buffer.from(ts + body), sendgrid.privateKey).toString("base64");
        return { body, signature };
      });
      let next = 0;
      console.log(`webhooks round ${round + 1}: posting ${fmt(posts)} signed posts`);
      start = performance.now();
      const hooks = await load({
        url: `${env.url}/api/webhooks/email/${provider.id}`,
        method: "POST",
        connections: CONNECTIONS,
        amount: posts,
        timeout: REQUEST_TIMEOUT,
        requests: [
          {
            setupRequest: (r) => {
              const s = signed[next++ % posts]!;
              return {
                ...r,
                body: s.body,
                headers: {
                  "content-type": "application/json",
                  "x-twilio-email-event-webhook-signature": s.signature,
                  "x-twilio-email-event-webhook-timestamp": ts,
                },
              };
            },
          },
        ],
      });
      const hookSeconds = seconds(start);
      const [{ n }] = await sql`select count(*)::int as n from message_events
        where project_id = ${env.projectId} and source = 'sendgrid' and message_id = any(${ids})`;
      if (hooks.non2xx || hooks.errors || n !== ids.length)
        throw new Error(`webhooks: ${hooks.non2xx} non-2xx, ${hooks.errors} errors, ${n} of ${ids.length} recorded`);
      await intakeDrained("the webhooks' system events through the pipeline");
      const row = {
        client: (posts * PER_POST) / clientSeconds,
        clientRecorded,
        webhooks: (posts * PER_POST) / hookSeconds,
        drained: ids.length / seconds(start),
      };
      rows.push(row);
      console.log(
        `webhooks round ${round + 1}: client accepted ${fmt(row.client)}/s, recorded ${fmt(row.clientRecorded)}/s; ` +
          `webhook events recorded ${fmt(row.webhooks)}/s (p99 ${hooks.p99} ms, ${hookSeconds.toFixed(1)} s), ` +
          `with their system events through the pipeline ${fmt(row.drained)}/s; ` +
          `ratio ${(row.webhooks / row.client).toFixed(2)} of accepted, ${(row.webhooks / row.clientRecorded).toFixed(2)} of recorded`,
      );
    }
    const m = (k: keyof (typeof rows)[0]) => median(rows.map((r) => r[k]));
    results.webhooks = {
      events: EVENTS,
      rows,
      ratioAccepted: median(rows.map((r) => r.webhooks / r.client)),
      ratioRecorded: median(rows.map((r) => r.webhooks / r.clientRecorded)),
    };
    console.log(
      `webhooks median: ${fmt(m("webhooks"))} events/s ÷ client accepted ${fmt(m("client"))}/s = ` +
        `${(results.webhooks as { ratioAccepted: number }).ratioAccepted.toFixed(2)} (target ≥ 0.5); ` +
        `÷ client recorded ${fmt(m("clientRecorded"))}/s = ${(results.webhooks as { ratioRecorded: number }).ratioRecorded.toFixed(2)}`,
    );
  }

  if (PHASES.has("dsns")) {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ids = dsnIds.slice(round * DSNS, (round + 1) * DSNS);
      const mails = ids.map((id, n) => {
        const to = bounceAddress({ projectId: env.projectId, messageId: id }, BOUNCE_DOMAIN)!;
        return dsnMail(to, { recipient: `dsn-${n}@bench.test` });
      });
      // An MTA writes each command whole; nodemailer's sockets with Nagle on waited out a delayed ACK
      // per command (about 40 ms), which measured the sender, not the listener.
      const transport = nodemailer.createTransport({
        pool: true,
        maxConnections: 8,
        maxMessages: Number.POSITIVE_INFINITY,
        host: "127.0.0.1",
        port: inboundPort,
        secure: false,
        ignoreTLS: true,
        getSocket: (_o: unknown, cb: (err: Error | null, s?: { connection: unknown }) => void) => {
          const socket = connect({ host: "127.0.0.1", port: inboundPort, noDelay: true });
          socket.once("connect", () => cb(null, { connection: socket }));
          socket.once("error", (err) => cb(err));
        },
      } as Parameters<typeof nodemailer.createTransport>[0]);
      // Every bounce of the project so far: this round's and the rounds' before it.
      const recorded = async () =>
        (
          await sql`select count(*)::int as n from message_events
            where project_id = ${env.projectId} and kind = 'bounced'`
        )[0]!.n as number;
      const want = (round + 1) * DSNS;
      const start = performance.now();
      let refused = 0;
      await Promise.all(mails.map((m) => transport.sendMail(m).catch(() => refused++)));
      const sentSeconds = seconds(start);
      transport.close();
      await waitFor(async () => (await recorded()) >= want, 600_000, "every DSN recorded");
      const took = seconds(start);
      times.push(took);
      if (refused) throw new Error(`dsns: ${refused} of ${ids.length} refused`);
      console.log(
        `dsns round ${round + 1}: ${fmt(ids.length)} through the inbound port in ${sentSeconds.toFixed(1)} s, ` +
          `all recorded in ${took.toFixed(1)} s (${fmt(ids.length / took)}/s; target ≤ 60 s for 10,000)`,
      );
      await intakeDrained("the bounces' system events through the pipeline");
    }
    results.dsns = { dsns: DSNS, seconds: times, median: median(times) };
    console.log(`dsns median: ${fmt(DSNS)} recorded in ${median(times).toFixed(1)} s`);
  }

  if (PHASES.has("broadcast")) {
    const list = await newsletterList(ctx, { count: BROADCAST_USERS, prefix: "bc-" });
    const variants = {
      none: async () => {},
      // As many suppressions as a tenth of the list, none of them a recipient: the check's own cost.
      unrelated: async () => {
        await sql`insert into suppressions (project_id, channel, address, reason, source)
          select ${env.projectId}, 'email', 'other-' || g || '@elsewhere.test', 'manual', 'api'
          from generate_series(1, ${Math.floor(BROADCAST_USERS / 10)}) g`;
      },
      // A tenth of the recipients suppressed: skipped with reason `suppressed`.
      tenth: async () => {
        await sql`insert into suppressions (project_id, channel, address, reason, source)
          select ${env.projectId}, 'email', 'bc-' || g || '@bench.test', 'manual', 'api'
          from generate_series(10, ${BROADCAST_USERS}, 10) g`;
      },
    };
    const rates: Record<keyof typeof variants, number[]> = { none: [], unrelated: [], tenth: [] };
    let round = 0;
    for (let r = 0; r < ROUNDS; r++)
      for (const [name, prepare] of Object.entries(variants) as [keyof typeof variants, () => Promise<void>][]) {
        await sql`delete from suppressions where project_id = ${env.projectId}`;
        await prepare();
        await sql`vacuum analyze suppressions`;
        const before = await sink.arrived();
        const start = performance.now();
        const b = await createBroadcast(
          ctx,
          createBroadcastBody.parse({ name: `${name} ${++round}`, template_id: template.id, list_id: list.id }),
        );
        await waitFor(
          async () => {
            const [row] = await sql`select state from broadcasts where project_id = ${env.projectId} and id = ${b.id}`;
            if (row!.state === "scheduled") return false;
            return (
              (
                await sql`select 1 from messages where project_id = ${env.projectId} and broadcast_id = ${b.id}
                  and state = 'queued' limit 1`
              ).length === 0
            );
          },
          600_000,
          `broadcast ${name} finished`,
        );
        const took = seconds(start);
        const states = await sql<{ state: string; reason: string | null; n: number }[]>`
          select state, reason, count(*)::int as n from messages
          where project_id = ${env.projectId} and broadcast_id = ${b.id} group by 1, 2`;
        const of = (state: string, reason: string | null = null) =>
          states.find((s) => s.state === state && s.reason === reason)?.n ?? 0;
        const skipped = name === "tenth" ? Math.floor(BROADCAST_USERS / 10) : 0;
        if (of("sent") !== BROADCAST_USERS - skipped || of("skipped", "suppressed") !== skipped)
          throw new Error(`broadcast ${name}: ${JSON.stringify(states)}`);
        await waitFor(
          async () => (await sink.arrived()) - before >= BROADCAST_USERS - skipped,
          30_000,
          `broadcast ${name} at the sink`,
        );
        rates[name].push(BROADCAST_USERS / took);
        console.log(
          `broadcast round ${r + 1} ${name.padEnd(9)}: ${fmt(BROADCAST_USERS / took)} recipients/s ` +
            `(${fmt(of("sent"))} sent, ${fmt(skipped)} suppressed, ${took.toFixed(1)} s)`,
        );
      }
    const none = median(rates.none);
    results.broadcast = {
      users: BROADCAST_USERS,
      rates,
      unrelatedRatio: median(rates.unrelated) / none,
      tenthRatio: median(rates.tenth) / none,
    };
    console.log(
      `broadcast median: none ${fmt(none)}/s; a list of a tenth's size naming no recipient ${fmt(median(rates.unrelated))}/s ` +
        `(ratio ${(median(rates.unrelated) / none).toFixed(2)}); a tenth of the recipients suppressed ${fmt(median(rates.tenth))}/s ` +
        `(ratio ${(median(rates.tenth) / none).toFixed(2)}); target ≥ 0.95`,
    );
  }
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(
    "bench/results/feedback.json",
    JSON.stringify({ at: new Date().toISOString(), loadavg: loadavg(), results }, null, 2),
  );
} finally {
  await worker?.stop();
  sink.stop();
  await env.close();
}
