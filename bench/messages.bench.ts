import { spawn } from "node:child_process";
import { connect } from "node:net";
import { loadavg } from "node:os";
import nodemailer from "nodemailer";
import { closeDatabase, getDb } from "../db/client";
import { systemContext } from "../lib/access/context";
import { createBroadcast } from "../lib/broadcasts/create-broadcast";
import { newDkimPrivateKey } from "../lib/providers/dkim";
import { updateProvider } from "../lib/providers/update-provider";
import { renderMessage } from "../lib/templates/render-message";
import { createBroadcastBody } from "../lib/broadcasts/schemas";
import { loadSendFacts } from "../lib/messages/send-facts";
import { SMS_CONNECTIONS, SMTP_CONNECTIONS } from "../lib/providers/transports";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { startPostfix } from "../scripts/test/postfix";
import { startCountingSink } from "./counting-sink";
import { newsletterList, newsletterMail, newsletterSetup } from "./newsletter";
import { smsRates, TWILIO } from "./messages-sms";
import { startWorker, type TestWorker } from "../scripts/test/worker";
import { benchDatabase } from "./harness";

/*
 * A broadcast's e-mail, measured on a real worker process against two real mail servers on loopback:
 * smtp-server in its own process (counting what it accepts, keeping nothing) and a private Postfix
 * (Debian's, scripts/test/postfix.ts: its own spool, a discard transport). Each round (BENCH_ROUNDS, 3):
 * 1. relay: a broadcast of a non-transactional template (subject, text and html with two tracked links,
 *    List-Unsubscribe) to a static list of BENCH_MESSAGE_USERS users (seeded in SQL), through the
 *    project's SMTP provider pointed at the server; messages/s from the broadcast's creation until none of
 *    its messages is queued (starting, claiming, rendering, sending and recording all inside).
 * 2. bare: the same rendered messages, same headers and Message-IDs, through a bare nodemailer pool with
 *    the same connections (MESSAGES_SMTP_CONNECTIONS), TCP_NODELAY on each socket and as many in flight
 *    as the worker, to the same server: the ceiling. Target relay ≥ 0.8 × bare, per server.
 * 3. dkim: the relay broadcast again through Postfix with the provider's DKIM key set; its rate over the
 *    unsigned one (target: signing costs ≤ 15 %).
 * 4. render: renderMessage alone over the round's messages in this process (target ≥ 20,000/s).
 * Then SMS: BENCH_SMS (20,000) texts through Relay's Twilio transport (sendTwilio, its keep-alive undici
 * Agent of MESSAGES_SMS_CONNECTIONS) to a loopback Twilio stand-in in its own process, beside a bare
 * undici loop with an Agent of the same connections and as many in flight (target ≥ 0.8).
 * Medians are reported with the load average. BENCH_MESSAGES_PHASES=render measures rendering alone.
 */
const USERS = Number(process.env.BENCH_MESSAGE_USERS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RENDER_ONLY = process.env.BENCH_MESSAGES_PHASES === "render";
const IN_FLIGHT = Number(process.env.MESSAGES_MAX_IN_FLIGHT ?? 400);
const SMS_COUNT = Number(process.env.BENCH_SMS ?? 20_000);
/** Comma-separated target names to run (`smtp-server`, `postfix`, `postfix, DKIM` needs `postfix`); all by default. */
const TARGETS = process.env.BENCH_MESSAGE_TARGETS?.split(/,(?! )/);
const ORIGIN = "https://relay.bench.test";
process.env.AUTH_SECRET ??= "bench-secret-not-for-production";
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

const { db, sql } = await benchDatabase("relay_bench_messages");
const sink = await startCountingSink();
/** Messages the sink has accepted so far. */
const sunk = sink.arrived;
let worker: TestWorker | undefined;
let stopPostfix: () => Promise<void> | undefined = () => undefined;
/** The arrivals counter once it reaches `want` or stops moving for 2 s (Postfix logs a moment after it accepts). */
async function settled(arrivals: () => Promise<number>, want: number): Promise<number> {
  let last = -1;
  for (let i = 0; i < 200; i++) {
    const n = await arrivals();
    if (n >= want || (n === last && i >= 20)) return n;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return arrivals();
}
try {
  const { port } = sink;
  const postfix = RENDER_ONLY ? undefined : await startPostfix();
  stopPostfix = () => postfix?.stop();
  /** Messages the Postfix has taken and discarded so far (its log's discard lines). */
  const discarded = async () => postfix!.log().match(/postfix\/discard\[\d+\]: \w+: to=.*status=sent/g)?.length ?? 0;
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "messages", ownerEmail: "bench@example.com" },
  );
  const ctx = systemContext(getDb(), project.id);
  const { provider, template } = await newsletterSetup(ctx, { url: `smtp://127.0.0.1:${port}?tls=none` });

  const t0 = performance.now();
  const list = await newsletterList(ctx, { count: USERS, prefix: "u" });
  console.log(`seeded ${fmt(USERS)} users and their list in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  if (!RENDER_ONLY)
    worker = await startWorker(db.url, {
      AUTH_SECRET: process.env.AUTH_SECRET,
      AUTH_URL: ORIGIN,
      DESTINATIONS_ALLOW_HOSTS: "127.0.0.1",
    });

  /** Broadcasts to the list; seconds to start and messages/s from creation until none is queued. */
  async function relay(round: number, arrivals: () => Promise<number>) {
    const before = await arrivals();
    const t = performance.now();
    const b = await createBroadcast(
      ctx,
      createBroadcastBody.parse({ name: `round ${round}`, template_id: template.id, list_id: list.id }),
    );
    let started = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (!started) {
        const [row] = await sql`select state from broadcasts where project_id = ${project.id} and id = ${b.id}`;
        if (row!.state === "scheduled") continue;
        started = performance.now();
      }
      // Whether any is still queued, not how many: counting 100,000 queued rows ten times a second was
      // PostgreSQL work the bare pool's side never pays.
      const [{ queued }] = await sql`select exists (select 1 from messages
        where project_id = ${project.id} and broadcast_id = ${b.id} and state = 'queued') as queued`;
      if (!queued) break;
    }
    const seconds = (performance.now() - t) / 1000;
    const [{ sent }] = await sql`select count(*)::int as sent from messages
      where project_id = ${project.id} and broadcast_id = ${b.id} and state = 'sent'`;
    const arrived = await settled(arrivals, before + USERS);
    if (sent !== USERS || arrived - before < USERS)
      throw new Error(`round ${round}: ${sent} sent, ${arrived - before} arrived of ${USERS}`);
    return { id: b.id, rate: USERS / seconds, startSeconds: (started - t) / 1000 };
  }

  /** The broadcast's messages rendered by renderMessage alone, timed apart from reading their facts. */
  async function render(broadcastId: string) {
    const ids = await sql<{ id: string }[]>`select id from messages
      where project_id = ${project.id} and broadcast_id = ${broadcastId}`;
    const facts = [];
    for (let i = 0; i < ids.length; i += 5_000)
      facts.push(
        ...(await loadSendFacts(ctx, {
          keys: ids.slice(i, i + 5_000).map((r) => ({ projectId: project.id, id: r.id })),
        })),
      );
    // Timed as the worker renders: each message rendered, sent and let go (keeping 100,000 rendered
    // messages alive made the timed pass mostly the garbage collector's copying them). The characters are
    // summed so no render can be skipped; the messages the bare phase sends are rendered again untimed.
    const t = performance.now();
    const cpu = process.cpuUsage();
    let chars = 0;
    for (const f of facts) {
      const r = renderMessage(f, ORIGIN);
      chars += r.subject.length + r.text.length + r.html.length;
    }
    const { user, system } = process.cpuUsage(cpu);
    const seconds = (performance.now() - t) / 1000;
    if (facts.length !== USERS || chars < facts.length)
      throw new Error(`render: ${facts.length} messages of ${USERS}, ${chars} characters`);
    return {
      rate: facts.length / seconds,
      // On a shared machine the wall clock includes waiting for a core; per CPU second it does not.
      perCpuSecond: facts.length / ((user + system) / 1e6),
      rendered: RENDER_ONLY ? [] : facts.map((f) => ({ f, r: renderMessage(f, ORIGIN) })),
    };
  }

  /**
   * The same rendered messages through a bare pooled nodemailer transport with TCP_NODELAY on each
   * socket, the same connections and as many in flight as the worker.
   */
  async function bare(
    rendered: Awaited<ReturnType<typeof render>>["rendered"],
    port: number,
    arrivals: () => Promise<number>,
  ) {
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      maxMessages: Number.POSITIVE_INFINITY,
      host: "127.0.0.1",
      port,
      secure: false,
      ignoreTLS: true,
      getSocket: (_o: unknown, cb: (err: Error | null, s?: { connection: unknown }) => void) => {
        const socket = connect({ host: "127.0.0.1", port, noDelay: true });
        socket.once("connect", () => cb(null, { connection: socket }));
        socket.once("error", (err) => cb(err));
      },
    } as Parameters<typeof nodemailer.createTransport>[0]);
    const before = await arrivals();
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < rendered.length) {
          const { f, r } = rendered[next++]!;
          await transport.sendMail(newsletterMail(f, r, ORIGIN));
        }
      }),
    );
    const rate = rendered.length / ((performance.now() - t) / 1000);
    transport.close();
    const arrived = (await settled(arrivals, before + rendered.length)) - before;
    if (arrived < rendered.length) throw new Error(`bare: ${arrived} arrived of ${rendered.length}`);
    return rate;
  }

  if (RENDER_ONLY) {
    const b = await createBroadcast(
      ctx,
      createBroadcastBody.parse({
        name: "render only",
        template_id: template.id,
        list_id: list.id,
        send_at: "2999-01-01T00:00:00Z",
      }),
    );
    await sql`insert into messages (project_id, template_id, user_id, channel, broadcast_id, next_attempt_at)
      select ${project.id}, ${template.id}, m.user_id, 'email', ${b.id}, '2999-01-01'
      from list_members m where m.project_id = ${project.id} and m.list_id = ${list.id}`;
    const rates: number[] = [];
    const cpu: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const r = await render(b.id);

      rates.push(r.rate);
      cpu.push(r.perCpuSecond);
      console.log(
        `round ${round}: render ${fmt(r.rate)}/s (${fmt(r.perCpuSecond)} per CPU second), load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
    console.log(
      `\nrendering alone, median of ${ROUNDS}: ${fmt(median(rates))} messages/s (target ≥ 20,000), ` +
        `${fmt(median(cpu))} per CPU second`,
    );
  } else {
    const targets = [
      { name: "smtp-server", port: port!, arrivals: sunk, dkim: false },
      { name: "postfix", port: postfix!.port, arrivals: discarded, dkim: false },
      { name: "postfix, DKIM", port: postfix!.port, arrivals: discarded, dkim: true },
    ].filter((t) => !TARGETS || TARGETS.includes(t.name));
    const rates = new Map(targets.map((t) => [t.name, { relay: [] as number[], bare: [] as number[] }]));
    const renders: number[] = [];
    const loads: number[] = [];
    const dkim = { domain: "acme.example", selector: "bench", private_key: newDkimPrivateKey() };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        await updateProvider(ctx, {
          id: provider.id,
          patch: { url: `smtp://127.0.0.1:${target.port}?tls=none`, dkim: target.dkim ? dkim : null },
        });
        // The worker reads providers through a 5-second cache: wait it out so the round uses this one.
        await new Promise((r) => setTimeout(r, 5_500));
        const r = await relay(round, target.arrivals);
        const rendered = await render(r.id);
        const b = target.dkim ? Number.NaN : await bare(rendered.rendered, target.port, target.arrivals);
        rates.get(target.name)!.relay.push(r.rate);
        rates.get(target.name)!.bare.push(b);
        renders.push(rendered.rate);
        console.log(
          `round ${round} ${target.name}: relay ${fmt(r.rate)}/s (started in ${r.startSeconds.toFixed(1)} s)` +
            (target.dkim ? "" : `, bare nodemailer ${fmt(b)}/s = ${(r.rate / b).toFixed(2)}`) +
            `, render ${fmt(rendered.rate)}/s (load ${loadavg()[0]!.toFixed(2)})`,
        );
      }
      loads.push(loadavg()[0]!);
    }
    const twilio = spawn(process.execPath, ["-e", TWILIO], { stdio: ["ignore", "pipe", "inherit"] });
    const twilioPort = await new Promise<number>((resolve) =>
      twilio.stdout!.once("data", (d) => resolve(JSON.parse(String(d)).port)),
    );
    const smsMeasured = { relay: [] as number[], bare: [] as number[] };
    for (let round = 1; round <= (SMS_COUNT ? ROUNDS : 0); round++) {
      const r = await smsRates(twilioPort, SMS_COUNT, round % 2 === 0);
      smsMeasured.relay.push(r.relay);
      smsMeasured.bare.push(r.bare);
      console.log(
        `round ${round} sms: relay ${fmt(r.relay)}/s, bare undici ${fmt(r.bare)}/s = ${(r.relay / r.bare).toFixed(2)}`,
      );
    }
    twilio.kill();
    console.log(
      `\nmedian of ${ROUNDS}, a broadcast to ${fmt(USERS)} users, ${SMTP_CONNECTIONS} SMTP connections, ${IN_FLIGHT} in flight:`,
    );
    // Each ratio is the median of the rounds' own ratios: a round's rates are measured back to back, while
    // from round to round the machine's load and the bench database's tables grow (100,000 messages more
    // per broadcast), so pairing one round's median rate with another round's compares unlike conditions.
    const perRound = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
    const ratio = (a: number[], b: number[]) => median(perRound(a, b));
    const rounds = (a: number[], b: number[]) =>
      perRound(a, b)
        .map((x) => x.toFixed(2))
        .join(", ");
    for (const target of targets.filter((t) => !t.dkim)) {
      const { relay: r, bare: b } = rates.get(target.name)!;
      console.log(
        `  ${target.name.padEnd(12)} relay ${fmt(median(r))}/s, bare ${fmt(median(b))}/s; relay ÷ bare ${ratio(r, b).toFixed(2)} (rounds ${rounds(r, b)}; target ≥ 0.8)`,
      );
    }
    if (rates.has("postfix, DKIM") && rates.has("postfix")) {
      const signed = rates.get("postfix, DKIM")!.relay;
      const unsigned = rates.get("postfix")!.relay;
      console.log(
        `  DKIM         relay ${fmt(median(signed))}/s signed through Postfix; signed ÷ unsigned ${ratio(signed, unsigned).toFixed(2)} (rounds ${rounds(signed, unsigned)}; cost ≤ 15 %: ≥ 0.85)`,
      );
    }
    if (SMS_COUNT)
      console.log(
        `  SMS          relay ${fmt(median(smsMeasured.relay))}/s, bare undici ${fmt(median(smsMeasured.bare))}/s = ` +
          `${ratio(smsMeasured.relay, smsMeasured.bare).toFixed(2)} (target ≥ 0.8), ${SMS_CONNECTIONS} connections, ${fmt(SMS_COUNT)} texts`,
      );
    console.log(`  rendering alone ${fmt(median(renders))} messages/s (target ≥ 20,000)`);
    console.log(`  load average (1 min) after each round: ${loads.map((l) => l.toFixed(2)).join(", ")}`);
  }
} finally {
  await worker?.stop(process.env.BENCH_PROF ? "SIGTERM" : "SIGKILL");
  await stopPostfix();
  sink.stop();
  await closeDatabase();
  await db.drop();
}
