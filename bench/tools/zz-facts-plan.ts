import { getDb, getSql } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { sendMessage } from "../../lib/messages/send-message";
import { sendMessageBody } from "../../lib/messages/schemas";
import { loadSendFacts } from "../../lib/messages/send-facts";
import { createTemplate } from "../../lib/templates/create-template";
import { createTemplateBody } from "../../lib/templates/schemas";
import { benchDatabase, benchProject } from "../harness";
const { db } = await benchDatabase("relay_bench_zz");
const sql = getSql();
const { projectId } = await benchProject("zz", "admin");
const ctx = systemContext(getDb(), projectId);
const template = await createTemplate(ctx, createTemplateBody.parse({ name: "Receipt", channel: "email", transactional: true, subject: "x {{ data.order_id }}", text: "t" }));
const users = await sql<{ id: string }[]>`insert into users (project_id, email) select ${projectId}, 'u' || g || '@bench.test' from generate_series(1, 1000) g returning id`;
await sql`vacuum analyze`;
const ids: string[] = [];
for (let i = 0; i < 300; i++) ids.push((await sendMessage(ctx, { body: sendMessageBody.parse({ template_id: template.id, user_id: users[i]!.id, data: {} }), idempotencyKey: crypto.randomUUID() })).answer.id);
for (const [name, fn] of [
  ["facts", (i: number) => loadSendFacts(ctx, { keys: [{ projectId, id: ids[i]! }] })],
  ["send", (i: number) => sendMessage(ctx, { body: sendMessageBody.parse({ template_id: template.id, user_id: users[i]!.id, data: {} }), idempotencyKey: crypto.randomUUID() })],
] as const) {
  const t = performance.now();
  for (let i = 0; i < 300; i++) await fn(i);
  console.log(name, ((performance.now() - t) / 300).toFixed(2), "ms each");
}
let n = 0; const seen: string[] = [];
const s2 = (await import("postgres")).default(db.url, { max: 1, debug: (_c: unknown, q: string) => { n++; seen.push(q.replace(/\s+/g, " ").slice(0, 100)); } });
const { drizzle } = await import("drizzle-orm/postgres-js");
const schema = await import("../../db/schema");
const { preparing } = await import("../../db/client");
const d2 = drizzle(preparing(s2), { schema, casing: "snake_case" });
await sendMessage({ ...ctx, db: d2 } as never, { body: sendMessageBody.parse({ template_id: template.id, user_id: users[5]!.id, data: {} }), idempotencyKey: crypto.randomUUID() });
console.log(n, "statements"); console.log(seen.join("\n"));
await s2.end(); await db.drop(); process.exit(0);
