import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import { closeDatabase, getDb } from "../../db/client";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { upsertRecords } from "../../lib/identity/upsert-records";
import { userChange } from "../../lib/users/upsert-user";
import { loadUserViews } from "../../lib/users/view";
import { bypassIntake } from "../../lib/pipeline/enqueue-steps";
import { createTestDatabase } from "../../scripts/test/database";
import { stopBoss } from "../../lib/queue/boss";
import { systemContext } from "@/lib/access/context";

/**
 * Where a set-based batch of new users spends its time, in process: BATCHES (default 20) batches of
 * SIZE (default 5,000, an import's batch) new users through upsertRecords, each in its own transaction,
 * time per statement (from the postgres.js `debug` hook: a statement's share runs until the next one is
 * sent, so the JS work after it counts too). `npx tsx bench/tools/upsert-batch-time.ts`; `EXPLAIN=1` prints the
 * last batch's plans with their trigger times; `INTAKE=1` hands the system events over through
 * event_intake rows (as single calls do) instead of in hand (as batches and imports do).
 */
const BATCHES = Number(process.env.BATCHES ?? 20);
const SIZE = Number(process.env.SIZE ?? 5000);
const db = await createTestDatabase("relay_batchtime");
process.env.DATABASE_URL = db.url;
let last: { label: string; t: number } | undefined;
const spent = new Map<string, number>();
const mark = (label: string) => {
  const t = performance.now();
  if (last) spent.set(last.label, (spent.get(last.label) ?? 0) + t - last.t);
  last = { label, t };
};
/** VIEWS=1: read the users back as /users/batch answers them (lib/users/view.ts). */
const VIEWS = process.env.VIEWS === "1";
const EXPLAIN = process.env.EXPLAIN === "1";
const INTAKE = process.env.INTAKE === "1";
/** Bytes of parameters sent per statement (what the web process writes to PostgreSQL besides the SQL text). */
const sent = new Map<string, number>();
const client = postgres(db.url, {
  max: 1,
  onnotice: (n) => EXPLAIN && console.log(n.message),
  debug: (_c, query, params) => {
    const label = query.replace(/\s+/g, " ").trim().slice(0, 70);
    sent.set(
      label,
      (sent.get(label) ?? 0) +
        (params as unknown[]).reduce<number>(
          (n, p) => n + (typeof p === "string" ? Buffer.byteLength(p) : String(p ?? "").length),
          0,
        ),
    );
    mark(label);
  },
});
const timed = drizzle(client, { schema, casing: "snake_case" });
try {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "t", projectName: "t", ownerEmail: "t@example.com" },
  );
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  // CPU spent by the one server backend (from /proc, same machine) and by this process: steadier than
  // wall time on a shared box, and it splits the cost between PostgreSQL and Node.
  const [{ pid }] = await client<{ pid: number }[]>`select pg_backend_pid() as pid`;
  // Start with no dirty buffers left by earlier runs: evicting them would be billed to this one.
  await client`checkpoint`;
  const backendCpu = () =>
    readFileSync(`/proc/${pid}/stat`, "utf8")
      .split(") ")[1]!
      .split(" ")
      .slice(11, 13)
      .reduce((n, t) => n + Number(t), 0) *
    (1e6 / 100);
  const cpu0 = { pg: backendCpu(), node: process.cpuUsage() };
  const t0 = performance.now();
  for (let b = 0; b < BATCHES; b++) {
    const items = Array.from({ length: SIZE }, (_, i) =>
      userChange({
        identifier: [{ source: "default", external_id: `imp-${b * SIZE + i}` }],
        email: `u${i}@example.com`,
        data: { plan: i % 3 ? "pro" : "free", seats: i % 50 },
      }),
    );
    await timed.transaction(async (tx) => {
      if (EXPLAIN && b === BATCHES - 1) {
        // The last batch's plans, with trigger (foreign key) times and WAL written, as notices (auto_explain).
        for (const s of [
          "load 'auto_explain'",
          "set local auto_explain.log_min_duration = 0",
          "set local auto_explain.log_analyze = on",
          "set local auto_explain.log_buffers = on",
          "set local auto_explain.log_triggers = on",
          "set local auto_explain.log_wal = on",
          "set local auto_explain.log_level = notice",
        ])
          await tx.execute(sql.raw(s));
      }
      // As the batch endpoints and imports call it: system events handed to steps 2-4 in hand (INTAKE=1: through event_intake).
      const ctx = systemContext(tx, project.id);
      const run = () =>
        upsertRecords(ctx, { kind: "user", items, conflicts: "reject", path: (i) => `[${i}].identifier` });
      const r = INTAKE ? await run() : await bypassIntake(ctx, run);
      if (VIEWS) await loadUserViews(systemContext(tx, project.id), r.ids);
    });
    mark("(after commit)");
    last = undefined;
  }
  const total = performance.now() - t0;
  console.log(
    `${BATCHES} x ${SIZE} new users: ${(total / 1000).toFixed(2)} s, ${Math.round((BATCHES * SIZE) / (total / 1000))} users/s`,
  );
  const node = process.cpuUsage(cpu0.node);
  const perUser = (us: number) => (us / (BATCHES * SIZE)).toFixed(1);
  console.log(
    `CPU per user: PostgreSQL backend ${perUser(backendCpu() - cpu0.pg)} µs, this process ${perUser(node.user + node.system)} µs (clock ticks of 10 ms: read over enough batches)`,
  );
  for (const [label, ms] of [...spent].sort((a, b) => b[1] - a[1])) {
    const bytes = sent.get(label) ?? 0;
    console.log(
      `${(ms / 1000).toFixed(2).padStart(7)} s ${`${Math.round(bytes / (BATCHES * SIZE))} B/user`.padStart(12)}  ${label}`,
    );
  }
} finally {
  // bypassIntake sends jobs through the process's pg-boss: stop it before the database goes.
  await stopBoss();
  await client.end();
  await closeDatabase();
  await db.drop();
}
