import { spawn } from "node:child_process";
import net from "node:net";
import { loadavg } from "node:os";
import nodemailer from "nodemailer";
import { Pool } from "undici";
import { closeDatabase, getDb } from "../db/client";
import { systemContext } from "../lib/access/context";
import { createApiKey } from "../lib/access/api-keys";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { createProvider } from "../lib/providers/create-provider";
import { createProviderBody } from "../lib/providers/schemas";
import { SMTP_CONNECTIONS } from "../lib/providers/transports";
import { startNextServer } from "../scripts/test/next-server";
import { startWorker, type TestWorker } from "../scripts/test/worker";
import { benchDatabase } from "./harness";
import { receiptTemplate } from "./receipt";

/*
 * The transactional send API's latency under a steady load, on the built app and one real worker with
 * their default settings, against a loopback SMTP sink (smtp-server in its own process, stamping the moment
 * it accepts each message's data, by Message-ID):
 * 1. relay: BENCH_RATE (200) requests/s for BENCH_SECONDS (60), open loop (one request every 1/rate s,
 *    whatever the answers), each `POST /api/client/messages` of a transactional template with `data` to one
 *    of 1,000 users and a fresh Idempotency-Key. Latency = the sink's acceptance − the moment the 202
 *    arrived; p50/p99/max over every message. Target: p99 ≤ 500 ms.
 * 2. bare: a bare nodemailer pool (MESSAGES_SMTP_CONNECTIONS connections, each socket with setNoDelay(true))
 *    sending one message at a time at the same rate for BENCH_BARE_SECONDS (20) to the same sink; latency
 *    = the sink's acceptance − the sendMail call: the floor the relay's figure sits beside.
 * Both clocks are `performance.timeOrigin + performance.now()` on one machine. BENCH_ROUNDS (3) rounds;
 * medians with the load average.
 * Before each round the bench database is vacuumed and analyzed, as autovacuum would have done in the
 * minute a round takes: the CI configuration this runs under turns autovacuum off, and without it the
 * messages table (12,000 rows and as many dead versions a round) is never analyzed, the plans cached on
 * the pools' connections while it was small keep scanning it whole, and each round answered fewer
 * requests than the last for that alone. The load itself stays an open loop.
 */
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BARE_SECONDS = Number(process.env.BENCH_BARE_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USERS = 1_000;
process.env.AUTH_SECRET ??= "bench-secret-not-for-production";
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";

const SINK = `
const { SMTPServer } = require("smtp-server");
const now = () => performance.timeOrigin + performance.now();
const server = new SMTPServer({
  authOptional: true, allowInsecureAuth: true, disabledCommands: ["STARTTLS"], logger: false,
  onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
  onData: (stream, _s, cb) => {
    let head = "";
    stream.on("data", (c) => { if (head.length < 16384) head += c.toString("latin1"); });
    stream.on("end", () => {
      const m = /^message-id:\\s*<([^@>]+)@/im.exec(head);
      process.stdout.write(JSON.stringify({ id: m ? m[1] : null, t: now() }) + "\\n");
      cb();
    });
  },
});
server.on("error", () => {});
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.server.address().port }) + "\\n"));
`;

const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const median = (xs: number[]) => pct(xs, 0.5);
const ms = (n: number) => `${n.toFixed(0)} ms`;

const { db, sql } = await benchDatabase("relay_bench_transactional");
const sink = spawn(process.execPath, ["-e", SINK], { stdio: ["ignore", "pipe", "inherit"] });
/** Acceptance time by Message-ID local part, filled as the sink reports. */
const accepted = new Map<string, number>();
let sinkPort = 0;
const sinkReady = new Promise<void>((resolve) => {
  let buf = "";
  sink.stdout!.on("data", (d) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (line.port) {
        sinkPort = line.port;
        resolve();
      } else if (line.id) accepted.set(line.id, line.t);
    }
  });
});

/** Calls `fire(i)` every 1/RATE s for `seconds`, open loop (late ticks catch up at once); waits for all. */
async function steady(seconds: number, fire: (i: number) => Promise<void>) {
  const n = Math.round(seconds * RATE);
  const start = now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const wait = start + (i * 1000) / RATE - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(fire(i));
  }
  // The rate the requests went out at (an open loop holds it however slow the answers are).
  const issued = (now() - start) / 1000;
  await Promise.all(running);
  return { seconds: issued, n };
}

/** Waits until every id has reached the sink (bounded), then answers their latencies from `from`. */
async function latencies(from: Map<string, number>) {
  const deadline = Date.now() + 120_000;
  while ([...from.keys()].some((id) => !accepted.has(id))) {
    if (Date.now() > deadline) {
      const missing = [...from.keys()].filter((id) => !accepted.has(id)).length;
      throw new Error(`${missing} of ${from.size} messages never reached the sink`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return [...from].map(([id, t]) => accepted.get(id)! - t);
}

let worker: TestWorker | undefined;
let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
try {
  await sinkReady;
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "transactional", ownerEmail: "bench@example.com" },
  );
  const ctx = systemContext(getDb(), project.id);
  const { secret } = await createApiKey(
    { db: getDb() },
    { projectId: project.id, name: "bench", role: "client", rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 },
  );
  await createProvider(
    ctx,
    createProviderBody.parse({
      channel: "email",
      kind: "smtp",
      name: "sink",
      url: `smtp://bench:secret@127.0.0.1:${sinkPort}`,
      from: "Acme <orders@acme.example>",
    }),
  );
  const template = await receiptTemplate(ctx);
  const users = await sql<{ id: string }[]>`insert into users (project_id, email, data)
    select ${project.id}, 'u' || g || '@bench.test', jsonb_build_object('first_name', 'User ' || g)
    from generate_series(1, ${USERS}) g returning id`;
  server = await startNextServer({ DATABASE_URL: db.url, DESTINATIONS_ALLOW_HOSTS: "127.0.0.1" });
  worker = await startWorker(db.url, { AUTH_SECRET: process.env.AUTH_SECRET, DESTINATIONS_ALLOW_HOSTS: "127.0.0.1" });
  const http = new Pool(server.url, { connections: 64 });

  async function relay(seconds: number) {
    const answered = new Map<string, number>();
    const requestMs: number[] = [];
    let refused = 0;
    const t0 = now();
    let last = t0;
    const run = await steady(seconds, async (i) => {
      const t = now();
      const res = await http.request({
        method: "POST",
        path: "/api/client/messages",
        headers: {
          authorization: `Bearer ${secret}`,
          "content-type": "application/json",
          "idempotency-key": crypto.randomUUID(),
        },
        body: JSON.stringify({
          template_id: template.id,
          user_id: users[i % USERS]!.id,
          data: {
            order_id: `A-${i}`,
            total: "42.00",
            items: [
              { name: "Tea", qty: 2 },
              { name: "Cup", qty: 1 },
            ],
          },
        }),
      });
      const body = (await res.body.json()) as { id?: string };
      const at = now();
      requestMs.push(at - t);
      last = Math.max(last, at);
      if (res.statusCode === 202 && body.id) answered.set(body.id, at);
      else refused++;
    });
    if (refused) throw new Error(`${refused} requests were not answered 202`);
    const lat = await latencies(answered);
    return { rate: run.n / run.seconds, answered: run.n / ((last - t0) / 1000), lat, requestP99: pct(requestMs, 0.99) };
  }

  async function bare(seconds: number) {
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      maxMessages: Number.POSITIVE_INFINITY,
      host: "127.0.0.1",
      port: sinkPort,
      secure: false,
      ignoreTLS: true,
      auth: { user: "bench", pass: "secret" },
      // Each pooled connection's socket without Nagle's algorithm: the fair floor.
      getSocket: (_opts: unknown, cb: (err: Error | null, s?: { connection: net.Socket }) => void) => {
        const s = net.connect(sinkPort, "127.0.0.1");
        s.setNoDelay(true);
        s.once("connect", () => cb(null, { connection: s }));
        s.once("error", (err) => cb(err));
      },
    } as nodemailer.TransportOptions);
    const sent = new Map<string, number>();
    await steady(seconds, async (i) => {
      const id = `bare-${crypto.randomUUID()}`;
      sent.set(id, now());
      await transport.sendMail({
        from: "Acme <orders@acme.example>",
        to: `u${(i % USERS) + 1}@bench.test`,
        subject: `Your order A-${i}`,
        text: `Hi User ${i},\n\n2 × Tea\n1 × Cup\nTotal: 42.00\n`,
        html: "<p>Hi</p><ul><li>2 × Tea</li><li>1 × Cup</li></ul><p>Total: 42.00</p>",
        messageId: `<${id}@bench.test>`,
      });
    });
    transport.close();
    return await latencies(sent);
  }

  // Warm-up: the first requests compile routes and templates, and open the pools.
  await relay(3);
  await bare(2);
  const rows: {
    p50: number;
    p99: number;
    max: number;
    bareP99: number;
    bareP50: number;
    rate: number;
    req: number;
    load: number;
  }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await sql`vacuum analyze`;
    const r = await relay(SECONDS);
    const b = await bare(BARE_SECONDS);
    const row = {
      p50: pct(r.lat, 0.5),
      p99: pct(r.lat, 0.99),
      max: Math.max(...r.lat),
      bareP50: pct(b, 0.5),
      bareP99: pct(b, 0.99),
      rate: r.rate,
      answered: r.answered,
      req: r.requestP99,
      load: loadavg()[0]!,
    };
    rows.push(row);
    console.log(
      `round ${round}: ${r.lat.length} messages sent at ${row.rate.toFixed(1)} req/s, answered at ${row.answered.toFixed(1)}/s; 202 → SMTP acceptance p50 ${ms(row.p50)}, ` +
        `p99 ${ms(row.p99)}, max ${ms(row.max)}; request p99 ${ms(row.req)}; bare pool p50 ${ms(row.bareP50)}, ` +
        `p99 ${ms(row.bareP99)} (load ${row.load.toFixed(2)})`,
    );
  }
  const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
  console.log(`\nmedian of ${ROUNDS}, ${RATE} requests/s for ${SECONDS} s, ${SMTP_CONNECTIONS} SMTP connections:`);
  console.log(`  relay: 202 → SMTP acceptance  p50 ${ms(m("p50"))}, p99 ${ms(m("p99"))} (target ≤ 500 ms)`);
  console.log(`  relay: request (until the 202) p99 ${ms(m("req"))}`);
  console.log(`  bare nodemailer pool (setNoDelay), one message  p50 ${ms(m("bareP50"))}, p99 ${ms(m("bareP99"))}`);
  console.log(`  load average (1 min) after each round: ${rows.map((r) => r.load.toFixed(2)).join(", ")}`);
  await http.close();
} finally {
  await worker?.stop("SIGKILL");
  await server?.stop();
  sink.kill();
  await closeDatabase();
  await db.drop();
}
