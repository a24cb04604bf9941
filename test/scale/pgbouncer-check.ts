/**
 * What works through PgBouncer in transaction mode, checked against a real one (docs/scaling.md quotes
 * the results). Not part of `npm test` (PgBouncer is not a dependency); run by hand:
 *
 *   DIRECT_URL=postgres://postgres@127.0.0.1:5432/postgres POOLED_URL=postgres://postgres@127.0.0.1:6432/postgres \
 *     node --import tsx test/scale/pgbouncer-check.ts
 *
 * Each line printed is one fact: the feature, and whether it worked through the pooler.
 */
import postgres from "postgres";
import { PgBoss } from "pg-boss";

const direct = process.env.DIRECT_URL;
const pooled = process.env.POOLED_URL;
if (!direct || !pooled)
  throw new Error("Set DIRECT_URL (PostgreSQL itself) and POOLED_URL (through PgBouncer, pool_mode = transaction).");

const say = (what: string, ok: boolean, detail: string) =>
  process.stdout.write(`${ok ? "works " : "BREAKS"}  ${what}: ${detail}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = { onnotice: () => {} };

async function preparedStatements(prepare: boolean) {
  // Two client pools, so server connections are handed between clients as transaction pooling does.
  const a = postgres(pooled!, { ...quiet, max: 10, prepare });
  const b = postgres(pooled!, { ...quiet, max: 10, prepare });
  let errors = 0;
  let first = "";
  await Promise.all(
    Array.from({ length: 400 }, (_, i) =>
      (i % 2 ? a : b)`select ${i}::int + 1 as n, ${"x"}::text as t`.catch((e: Error) => {
        errors++;
        first ||= e.message;
      }),
    ),
  );
  await Promise.all([a.end(), b.end()]);
  say(
    `postgres.js queries with prepare: ${prepare}`,
    errors === 0,
    errors ? `${errors}/400 failed, e.g. "${first}"` : "400/400 answered",
  );
}

async function startupParameter() {
  const s = postgres(pooled!, { ...quiet, max: 1, connection: { jit: "off", application_name: "relay-check" } });
  try {
    await s`select 1`;
    say("startup parameters jit=off and application_name (db/client.ts sends both)", true, "accepted");
  } catch (e) {
    say("startup parameters jit=off and application_name (db/client.ts sends both)", false, (e as Error).message);
  } finally {
    await s.end();
  }
}

async function listenNotify(listenVia: string, notifyVia: string, label: string) {
  const listener = postgres(listenVia, { ...quiet, max: 1 });
  const notifier = postgres(notifyVia, { ...quiet, max: 4 });
  const other = postgres(pooled!, { ...quiet, max: 8 });
  let got = 0;
  try {
    await listener.listen("relay_check", () => got++);
    // Other clients keep the pooler's server connections busy, as a loaded system does.
    const busy = Promise.all(Array.from({ length: 200 }, () => other`select pg_sleep(0.005)`.catch(() => {})));
    for (let i = 0; i < 20; i++) {
      await notifier`select pg_notify('relay_check', ${String(i)})`;
      await sleep(20);
    }
    await busy;
    await sleep(1000);
    say(label, got === 20, `${got}/20 notifications received`);
  } catch (e) {
    say(label, false, (e as Error).message);
  } finally {
    await Promise.all([listener.end({ timeout: 1 }), notifier.end(), other.end()]);
  }
}

async function sessionState() {
  // A session-level advisory lock (db/migrate.ts) is held by the server connection, which the pooler
  // hands to other clients between statements: the statements of one client land on several backends.
  const a = postgres(pooled!, { ...quiet, max: 1, prepare: false });
  const b = postgres(pooled!, { ...quiet, max: 10, prepare: false });
  const pids = new Set<number>();
  const busy = Promise.all(Array.from({ length: 300 }, () => b`select pg_sleep(0.002)`));
  for (let i = 0; i < 30; i++) pids.add((await a`select pg_backend_pid() as pid`)[0]!.pid as number);
  await busy;
  await Promise.all([a.end(), b.end()]);
  say(
    "session state (pg_advisory_lock, SET, LISTEN) kept between statements",
    pids.size === 1,
    `one client's 30 statements ran on ${pids.size} backends`,
  );
}

async function pgBoss() {
  const schema = `pgboss_check_${process.pid}`;
  const boss = new PgBoss({ connectionString: pooled!, schema, max: 4, superviseIntervalSeconds: 5 });
  let error = "";
  boss.on("error", (e) => (error ||= (e as Error).message));
  try {
    await boss.start();
    await boss.createQueue("check");
    const done = new Set<string>();
    await boss.work("check", { batchSize: 20, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const j of jobs) done.add((j.data as { i: string }).i);
    });
    await boss.insert(
      "check",
      Array.from({ length: 200 }, (_, i) => ({ data: { i: String(i) } })),
    );
    for (let t = 0; t < 100 && done.size < 200; t++) await sleep(100);
    say(
      "pg-boss 12 start (its own migrations), insert, work, complete",
      done.size === 200 && !error,
      `${done.size}/200 jobs done${error ? `; error: ${error}` : ""}`,
    );
  } catch (e) {
    say("pg-boss 12 start (its own migrations), insert, work, complete", false, (e as Error).message);
  } finally {
    await boss.stop({ graceful: false, timeout: 2000 }).catch(() => {});
    const d = postgres(direct!, { ...quiet, max: 1 });
    await d.unsafe(`drop schema if exists ${schema} cascade`);
    await d.end();
  }
}

async function transactions() {
  const s = postgres(pooled!, { ...quiet, max: 10, prepare: false });
  await s`create table if not exists relay_check_tx (k int primary key, n int)`;
  await s`truncate relay_check_tx`;
  await s`insert into relay_check_tx values (1, 0)`;
  // Read-modify-write under FOR UPDATE in 100 transactions: the whole transaction stays on one backend.
  await Promise.all(
    Array.from({ length: 100 }, () =>
      s.begin(async (tx) => {
        const [r] = await tx`select n from relay_check_tx where k = 1 for update`;
        await tx`update relay_check_tx set n = ${(r!.n as number) + 1} where k = 1`;
      }),
    ),
  );
  const [r] = await s`select n from relay_check_tx where k = 1`;
  await s`drop table relay_check_tx`;
  await s.end();
  say("transactions (drizzle's db.transaction, SKIP LOCKED claims)", r!.n === 100, `${r!.n}/100 increments kept`);
}

await preparedStatements(true);
await preparedStatements(false);
await startupParameter();
await transactions();
await sessionState();
await listenNotify(pooled, pooled, "LISTEN through the pooler (intake wake-ups), NOTIFY through it");
await listenNotify(direct, pooled, "LISTEN on a direct connection, NOTIFY through the pooler");
await pgBoss();
process.exit(0);
