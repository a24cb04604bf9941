import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { Agent, request } from "undici";
import { closeDatabase, getDb } from "../db/client";
import { systemContext } from "../lib/access/context";
import { createDestination } from "../lib/destinations/create-destination";
import { signedHeaders, webhookIdOf } from "../lib/destinations/sign";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { startWorker, type TestWorker } from "../scripts/test/worker";
import { benchDatabase } from "./harness";

/*
 * Destination delivery, measured on a real worker process against a loopback receiver (its own process,
 * answering 200 at once; a second port accepts connections and never answers):
 * 1. bare: a plain undici loop (keep-alive Agent, DESTINATION_CONCURRENCY in flight) posting the same
 *    signed messages to the receiver: the ceiling.
 * 2. relay: BENCH_MESSAGES pending deliveries (default 20,000) to one destination; deliveries/s from
 *    the moment they are due until the last is recorded delivered. Target ≥ 0.5 × bare.
 * 3. isolation: the same with a second destination that never answers holding as many messages; the
 *    first's rate over its rate alone. Target ≥ 0.8.
 * Each is run BENCH_ROUNDS times (default 3); the median is reported with the load average.
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.DESTINATION_CONCURRENCY ?? 16);
process.env.AUTH_SECRET ??= "bench-secret-not-for-production";
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";

const RECEIVER = `
const http = require("node:http"), net = require("node:net");
let n = 0;
const ok = http.createServer((req, res) => { req.resume(); req.on("end", () => { n++; res.writeHead(200).end("ok"); }); });
ok.keepAliveTimeout = 60000;
const dead = net.createServer(() => {});
ok.listen(0, "127.0.0.1", () => dead.listen(0, "127.0.0.1", () =>
  process.stdout.write(JSON.stringify({ ok: ok.address().port, dead: dead.address().port }) + "\\n")));
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

const { db, sql } = await benchDatabase("relay_bench_destinations");
const receiver = spawn(process.execPath, ["-e", RECEIVER], { stdio: ["ignore", "pipe", "inherit"] });
let worker: TestWorker | undefined;
try {
  const ports = await new Promise<{ ok: number; dead: number }>((resolve) =>
    receiver.stdout!.once("data", (d) => resolve(JSON.parse(String(d)))),
  );
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "bench", projectName: "destinations", ownerEmail: "bench@example.com" },
  );
  const ctx = systemContext(getDb(), project.id);
  const live = await createDestination(ctx, {
    name: "live",
    url: `http://127.0.0.1:${ports.ok}/hook`,
    events: ["*"],
    enabled: true,
  });
  const dead = await createDestination(ctx, {
    name: "dead",
    url: `http://127.0.0.1:${ports.dead}/hook`,
    events: ["*"],
    enabled: true,
  });
  const payload = {
    type: "Order Completed",
    timestamp: new Date().toISOString(),
    data: {
      event: { id: crypto.randomUUID(), name: "Order Completed", data: { total: 42, currency: "EUR", items: 3 } },
      user: {
        id: crypto.randomUUID(),
        email: "ada@example.com",
        identifiers: [{ source: "default", external_id: "ada" }],
      },
    },
  };
  const body = JSON.stringify(payload);

  async function bare(): Promise<number> {
    const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
    const url = `http://127.0.0.1:${ports.ok}/hook`;
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MESSAGES) {
          next++;
          const id = webhookIdOf(crypto.randomUUID());
          const res = await request(url, {
            method: "POST",
            dispatcher: agent,
            headers: signedHeaders({ current: live.secret }, id, body),
            body,
          });
          await res.body.dump();
        }
      }),
    );
    const rate = MESSAGES / ((performance.now() - t) / 1000);
    await agent.close();
    return rate;
  }

  /** Seeds `n` deliveries not yet due for each destination, then makes them due at once and times the live one. */
  async function relay(withDead: boolean): Promise<number> {
    await sql`delete from destination_deliveries where project_id = ${project.id}`;
    await sql`update destinations set enabled = true, failing_since = null, disabled_reason = null where project_id = ${project.id}`;
    for (const d of withDead ? [live.id, dead.id] : [live.id])
      await sql`insert into destination_deliveries (project_id, destination_id, event_name, payload, next_attempt_at)
        select ${project.id}, ${d}, 'Order Completed', ${body}::jsonb, '2999-01-01' from generate_series(1, ${MESSAGES})`;
    // The clock starts once they are due: making twice as many rows due (beside the dead destination)
    // is the bench's own work, not the sender's.
    await sql`update destination_deliveries set next_attempt_at = now() where project_id = ${project.id}`;
    const t = performance.now();
    await sql`select pg_notify('relay_destinations', '')`;
    for (;;) {
      // Done when none is left pending (the log's pruning may already have removed delivered ones).
      const [{ n }] = await sql`select count(*)::int as n from destination_deliveries
        where project_id = ${project.id} and destination_id = ${live.id} and state = 'pending'`;
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return MESSAGES / ((performance.now() - t) / 1000);
  }

  worker = await startWorker(db.url, {
    AUTH_SECRET: process.env.AUTH_SECRET,
    DESTINATIONS_ALLOW_HOSTS: "127.0.0.1",
    DESTINATION_POLL_MS: "200",
  });
  const results = { bare: [] as number[], relay: [] as number[], isolated: [] as number[] };
  const loads: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    results.bare.push(await bare());
    results.relay.push(await relay(false));
    results.isolated.push(await relay(true));
    loads.push(loadavg()[0]!);
    console.log(
      `round ${round}: bare ${fmt(results.bare.at(-1)!)}/s, relay ${fmt(results.relay.at(-1)!)}/s, ` +
        `relay beside a dead destination ${fmt(results.isolated.at(-1)!)}/s (load ${loads.at(-1)!.toFixed(2)})`,
    );
  }
  const [b, r, i] = [median(results.bare), median(results.relay), median(results.isolated)];
  console.log(
    `\nmedian of ${ROUNDS}, ${MESSAGES.toLocaleString("en")} messages, ${CONCURRENCY} in flight per destination:`,
  );
  console.log(`  bare undici loop          ${fmt(b)} messages/s`);
  console.log(`  relay deliveries          ${fmt(r)} deliveries/s = ${(r / b).toFixed(2)} × bare (target ≥ 0.5)`);
  console.log(`  beside a dead destination ${fmt(i)} deliveries/s = ${(i / r).toFixed(2)} × alone (target ≥ 0.8)`);
  console.log(`  load average (1 min) during the rounds: ${loads.map((l) => l.toFixed(2)).join(", ")}`);
} finally {
  await worker?.stop("SIGKILL");
  receiver.kill();
  await closeDatabase();
  await db.drop();
}
