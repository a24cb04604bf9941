import { getDb, getSql } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { recordFeedback } from "../../lib/feedback/record-feedback";
import { benchDatabase, benchProject } from "../harness";
import { newsletterSetup } from "../newsletter";

process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";
const { db } = await benchDatabase("relay_bench_fbstages");
const sql = getSql();
const { projectId } = await benchProject("stages", "admin");
const ctx = systemContext(getDb(), projectId);
const { template } = await newsletterSetup(ctx, { url: "smtp://127.0.0.1:1?tls=none" });
if (process.env.FILL) await sql.unsafe(`alter table messages set (fillfactor = ${process.env.FILL})`);
const N = 4000;
const ids = (
  await sql<{ id: string }[]>`
  with u as (insert into users (project_id, email)
    select ${projectId}, 'u-' || g || '@bench.test' from generate_series(1, ${N}) g returning id, email)
  insert into messages (project_id, template_id, user_id, channel, state, recipient, attempts, finished_at)
  select ${projectId}, ${template.id}, u.id, 'email', 'sent', u.email, 1, now() from u returning id`
).map((r) => r.id);
await sql`vacuum analyze`;
const t = performance.now();
for (let i = 0; i < N; i += 100)
  await recordFeedback(ctx, {
    reports: ids.slice(i, i + 100).map((id, k) => ({
      messageId: id,
      kind: "delivered" as const,
      source: "sendgrid" as const,
      dedupeKey: `ev-${i}-${k}`,
    })),
  });
console.log(`per post of 100: ${((performance.now() - t) / (N / 100)).toFixed(1)} ms`);
if (!process.env.KEEP) await db.drop();
process.exit(0);
