import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { getDb, getSql, type Transaction } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { recordFeedback } from "../../lib/feedback/record-feedback";
import { benchDatabase, benchProject } from "../harness";
import { newsletterSetup } from "../newsletter";

/**
 * recordFeedback in process, posts of 100 `delivered` reports about as many sent messages: ms per post,
 * and per statement (in the order recordFeedback sends them, named by what each writes), timed through
 * the transaction it is given. `npx tsx bench/tools/feedback-stages.ts`; FILL sets the messages'
 * fillfactor, KEEP keeps the database.
 */
process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1";
const { db } = await benchDatabase("relay_bench_fbstages");
const sql = getSql();
const { projectId } = await benchProject("stages", "admin");
const ctx = systemContext(getDb(), projectId);
const { template } = await newsletterSetup(ctx, { url: "smtp://127.0.0.1:1?tls=none" });
if (process.env.FILL) await sql.unsafe(`alter table messages set (fillfactor = ${process.env.FILL})`);
const N = Number(process.env.N ?? 4000);
const ids = (
  await sql<{ id: string }[]>`
  with u as (insert into users (project_id, email)
    select ${projectId}, 'u-' || g || '@bench.test' from generate_series(1, ${N}) g returning id, email)
  insert into messages (project_id, template_id, user_id, channel, state, recipient, attempts, finished_at)
  select ${projectId}, ${template.id}, u.id, 'email', 'sent', u.email, 1, now() from u returning id`
).map((r) => r.id);
await sql`vacuum analyze`;

const dialect = new PgDialect();
const stages = new Map<string, number>();
/** What a statement writes (or locks), for its row in the table. */
function stageOf(q: SQL): string {
  const text = dialect.sqlToQuery(q).sql.replace(/\s+/g, " ");
  if (/ for update/.test(text)) return "lock";
  const writes = [...text.matchAll(/(insert into|update) (\w+) /g)].map((m) => `${m[1]} ${m[2]}`);
  return writes.length ? [...new Set(writes)].join(", ") : text.slice(0, 40);
}
/** The transaction, with each statement it runs timed into `stages`. */
function timed(tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop !== "execute") return Reflect.get(target, prop, receiver);
      return async (q: SQL) => {
        const t = performance.now();
        try {
          return await target.execute(q);
        } finally {
          const stage = stageOf(q);
          stages.set(stage, (stages.get(stage) ?? 0) + performance.now() - t);
        }
      };
    },
  });
}

const posts = N / 100;
const t = performance.now();
for (let i = 0; i < N; i += 100)
  await getDb().transaction((tx) =>
    recordFeedback(
      { ...ctx, db: timed(tx) },
      {
        reports: ids.slice(i, i + 100).map((id, k) => ({
          messageId: id,
          kind: "delivered" as const,
          source: "sendgrid" as const,
          dedupeKey: `ev-${i}-${k}`,
        })),
      },
    ),
  );
console.log(`per post of 100: ${((performance.now() - t) / posts).toFixed(1)} ms`);
for (const [stage, ms] of stages) console.log(`  ${(ms / posts).toFixed(1).padStart(5)} ms  ${stage}`);
if (!process.env.KEEP) await db.drop();
process.exit(0);
