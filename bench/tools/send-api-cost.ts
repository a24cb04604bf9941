import { getDb, getSql } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { sendMessage } from "../../lib/messages/send-message";
import { sendMessageBody } from "../../lib/messages/schemas";
import { backendSeconds, benchDatabase, benchProject } from "../harness";
import { receiptTemplate } from "../receipt";

/*
 * What one transactional send (lib/messages/send-message.ts, the route's whole domain work) costs in
 * process: node CPU, PostgreSQL CPU (this database's backends, from /proc) and statements, per request with
 * a fresh Idempotency-Key, one at a time. `npx tsx bench/tools/send-api-cost.ts` (BENCH_REQUESTS, 2,000).
 */
const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const { db } = await benchDatabase("relay_bench_sendcost");
const sql = getSql();
const { projectId } = await benchProject("sendcost", "admin");
const ctx = systemContext(getDb(), projectId);
const template = await receiptTemplate(ctx);
const users = await sql<{ id: string }[]>`insert into users (project_id, email)
  select ${projectId}, 'u' || g || '@bench.test' from generate_series(1, 1000) g returning id`;
await sql`vacuum analyze`;
const body = (i: number) =>
  sendMessageBody.parse({
    template_id: template.id,
    user_id: users[i % 1000]!.id,
    data: { order_id: `A-${i}`, total: "42.00" },
  });
for (let i = 0; i < 200; i++) await sendMessage(ctx, { body: body(i), idempotencyKey: crypto.randomUUID() });
const pg0 = await backendSeconds();
const cpu = process.cpuUsage();
const t = performance.now();
for (let i = 0; i < N; i++) await sendMessage(ctx, { body: body(i), idempotencyKey: crypto.randomUUID() });
const wall = (performance.now() - t) / N;
const { user, system } = process.cpuUsage(cpu);
const pg = ((await backendSeconds()) - pg0) / N;
console.log(
  `per send: node ${((user + system) / N).toFixed(0)} µs, postgres ${(pg * 1e6).toFixed(0)} µs, wall ${(wall * 1000).toFixed(0)} µs`,
);
if (!process.env.KEEP) await db.drop();
process.exit(0);
