import { getDb, getSql } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { createBroadcast } from "../../lib/broadcasts/create-broadcast";
import { createBroadcastBody } from "../../lib/broadcasts/schemas";
import { tickBroadcasts } from "../../lib/broadcasts/tick-broadcasts";
import { claimMessages } from "../../lib/messages/claim-messages";
import { recordDeliveries } from "../../lib/messages/record-deliveries";
import { loadSendFacts } from "../../lib/messages/send-facts";
import { bounceAddress } from "../../lib/messages/bounce-address";
import { messageIdFor } from "../../lib/messages/send-rendered";
import { composeMail } from "../../lib/providers/compose-mail";
import { renderMessage } from "../../lib/templates/render-message";
import { backendSeconds, benchDatabase, benchProject } from "../harness";
import { newsletterList, newsletterMail, newsletterSetup } from "../newsletter";

/*
 * What each stage of a broadcast's send costs per message, in process and one stage at a time, so the
 * figures hold on a busy machine: the node CPU (process.cpuUsage) and the PostgreSQL CPU (the backends
 * of this database, read from /proc) of starting the broadcast, claiming, reading the facts, rendering,
 * composing and recording the outcomes (in writes of BENCH_RECORD_BATCH, as the sender gathers them).
 * `npx tsx bench/tools/message-stages.ts` (BENCH_MESSAGE_USERS, 10,000).
 */
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";
process.env.AUTH_SECRET ??= "bench-secret-not-for-production";
const USERS = Number(process.env.BENCH_MESSAGE_USERS ?? 10_000);
const RECORD_BATCH = Number(process.env.BENCH_RECORD_BATCH ?? 20);
const ORIGIN = "https://relay.bench.test";
const { db } = await benchDatabase("relay_bench_msgstages");
const sql = getSql();
const { projectId } = await benchProject("stages", "admin");
const ctx = systemContext(getDb(), projectId);
const { template } = await newsletterSetup(ctx, { url: "smtp://127.0.0.1:1?tls=none" });
const list = await newsletterList(ctx, { count: USERS, prefix: "u" });

const rows: string[] = [];
async function stage<T>(name: string, n: number, fn: () => Promise<T>): Promise<T> {
  const pg0 = await backendSeconds();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const out = await fn();
  const wall = performance.now() - t;
  const { user, system } = process.cpuUsage(cpu);
  const pg = (await backendSeconds()) - pg0;
  rows.push(
    `${name.padEnd(22)} node ${(((user + system) / 1000 / n) * 1000).toFixed(0).padStart(5)} µs  ` +
      `postgres ${((pg / n) * 1e6).toFixed(0).padStart(5)} µs  wall ${((wall / n) * 1000).toFixed(0).padStart(5)} µs`,
  );
  return out;
}

const b = await createBroadcast(
  ctx,
  createBroadcastBody.parse({ name: "stages", template_id: template.id, list_id: list.id }),
);
await stage("start (fan-out)", USERS, async () => {
  while ((await sql`select state from broadcasts where id = ${b.id}`)[0]!.state === "scheduled")
    await tickBroadcasts(ctx, { chunk: 5000 });
});
await sql`analyze messages`;

const claimed: { project_id: string; id: string }[] = [];
await stage("claim (200 a time)", USERS, async () => {
  for (;;) {
    const got = await claimMessages(ctx, { held: new Map(), limit: 200, maxInFlight: 1_000_000, leaseSeconds: 600 });
    if (!got.length) break;
    claimed.push(...got);
  }
});
const keys = claimed.map((c) => ({ projectId: c.project_id, id: c.id }));
const facts = await stage("facts (200 a time)", USERS, async () => {
  const all = [];
  for (let i = 0; i < keys.length; i += 200)
    all.push(...(await loadSendFacts(ctx, { keys: keys.slice(i, i + 200), render: true })));
  return all;
});
const rendered = await stage("render", USERS, async () =>
  facts.map((f) => ({ f, r: renderMessage(f, ORIGIN, { send: true }) })),
);
await stage("compose", USERS, async () => {
  for (const { f, r } of rendered)
    await composeMail({
      ...newsletterMail(f, r, ORIGIN),
      envelopeFrom: bounceAddress({ projectId: f.project_id, messageId: f.id }),
    });
});
await stage(`record (${RECORD_BATCH} a write)`, USERS, async () => {
  for (let i = 0; i < rendered.length; i += RECORD_BATCH)
    await recordDeliveries(ctx, {
      recorded: rendered.slice(i, i + RECORD_BATCH).map(({ f, r }) => ({
        projectId: f.project_id,
        id: f.id,
        delivery: {
          kind: "final" as const,
          state: "sent" as const,
          reason: null,
          recipient: f.email,
          subject: r.subject,
          locale: r.locale,
          providerId: null,
          providerMessageId: messageIdFor(f.id, ORIGIN),
          attempted: true,
        },
      })),
    });
});
console.log(`per message, ${USERS.toLocaleString("en")} messages of one broadcast:\n${rows.join("\n")}`);
if (!process.env.KEEP) await db.drop();
process.exit(0);
