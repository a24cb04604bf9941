import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { createTestDatabase } from "../scripts/test/database";

/**
 * Two checkouts' batch path compared in one process: `npx tsx bench/ab-batch.ts <dir A> <dir B>` (each a
 * checkout with node_modules, e.g. a `git worktree` of the commit before a change and this one).
 * Each side upserts batches of 1,000 new users (bench/bodies.ts) through its own upsertUsers, in its own
 * project of one fresh database, with one connection each; blocks of PER (default 5) batches alternate
 * A B, B A, ... BLOCKS (default 40) times. Per block it reads the side's PostgreSQL backend CPU (from
 * /proc) and this process's CPU (the side's JavaScript; nothing else runs in it meanwhile), per user,
 * and prints the mean paired difference B - A with its standard error.
 *
 * Why: on these shared two-core machines the same build's machine CPU per batched user ranged 110-147 µs
 * over minutes (bench/profile-route.ts, one run each), so pairs of whole-server runs read a few percent
 * of change into noise (four such pairs suggested 9% where this found none). Short interleaved blocks put
 * both sides in the same minute, and the paired differences cancel the drift. No HTTP, no response: a
 * change to those needs bench/profile-route.ts. NO_GIN=1 drops users_data_gin first: its pending list is
 * merged by whichever insert fills it, which put a spike into one side's block at random.
 */
const [a, b] = process.argv.slice(2).map((d) => path.resolve(d));
if (!a || !b) throw new Error("usage: tsx bench/ab-batch.ts <checkout A> <checkout B>");
const BLOCKS = Number(process.env.BLOCKS ?? 40);
const PER = Number(process.env.PER ?? 5);
// One connection per side, so the side's statements all run in the backend whose CPU is read.
process.env.DATABASE_POOL_SIZE = "1";
const db = await createTestDatabase("relay_ab");
process.env.DATABASE_URL = db.url;
const admin = postgres(db.url, { max: 1, onnotice: () => {} });
if (process.env.NO_GIN) await admin`drop index users_data_gin`;

interface Side {
  dir: string;
  backend: number;
  batch: () => Promise<unknown>;
  close: () => Promise<void>;
  pg: number[];
  js: number[];
}

async function side(dir: string, n: number): Promise<Side> {
  // Each checkout's own modules (its own db/client.ts pool, its own verbs).
  const { getDb, closeDatabase } = await import(`${dir}/db/client.ts`);
  const { stopBoss } = await import(`${dir}/lib/queue/boss.ts`);
  const { createProjectWithOwner } = await import(`${dir}/lib/projects/create-project.ts`);
  const { systemContext } = await import(`${dir}/lib/access/context.ts`);
  const { upsertUsers } = await import(`${dir}/lib/users/upsert-user.ts`);
  const { userBatchInput } = await import(`${dir}/lib/users/schemas.ts`);
  const { newUsersBody } = await import(`${dir}/bench/bodies.ts`);
  const handle = getDb();
  const { project } = await createProjectWithOwner(handle, { orgName: "ab", projectName: `side ${n}`, ownerEmail: `ab${n}@example.com` });
  const ctx = systemContext(handle, project.id);
  const [row] = (await handle.execute("select pg_backend_pid() as pid")) as unknown as { pid: number }[];
  const prefix = `ab${n}`;
  return { dir, backend: row!.pid, batch: () => upsertUsers(ctx, userBatchInput.parse(JSON.parse(newUsersBody(prefix)))),
    close: async () => {
      await stopBoss();
      await closeDatabase();
    },
    pg: [],
    js: [],
  };
}

/** CPU ms of a process (utime + stime, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}
const ownMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const sides: Side[] = [];
try {
  sides.push(await side(a, 0), await side(b, 1));
  // Warm both sides' code and plans.
  for (const s of sides) for (let i = 0; i < 5; i++) await s.batch();
  for (let k = 0; k < BLOCKS; k++) {
    for (const s of k % 2 ? [...sides].reverse() : sides) {
      // Each block starts after a checkpoint, so full-page images fall alike on both sides.
      await admin`checkpoint`;
      const pg0 = cpuMs(s.backend);
      const js0 = ownMs();
      for (let i = 0; i < PER; i++) await s.batch();
      s.pg.push(((cpuMs(s.backend) - pg0) * 1000) / (PER * 1000));
      s.js.push(((ownMs() - js0) * 1000) / (PER * 1000));
    }
  }
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const se = (xs: number[]) => Math.sqrt(xs.reduce((t, x) => t + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
  const [sa, sb] = sides as [Side, Side];
  const diff = (f: (s: Side) => number[]) => f(sb).map((x, i) => x - f(sa)[i]!);
  const line = (label: string, f: (s: Side) => number[]) => {
    const d = diff(f);
    console.log(`${label.padEnd(22)} A ${mean(f(sa)).toFixed(1).padStart(6)}  B ${mean(f(sb)).toFixed(1).padStart(6)}  B - A ${mean(d).toFixed(1).padStart(5)} ± ${se(d).toFixed(1)} (s.e.)`);
  };
  console.log(`A = ${a}\nB = ${b}\n${BLOCKS} blocks of ${PER} batches of 1,000 new users per side, µs per user:`);
  line("PostgreSQL backend CPU", (s) => s.pg);
  line("JavaScript CPU", (s) => s.js);
} finally {
  for (const s of sides) await s.close();
  await admin.end();
  await db.drop();
  process.exit(0);
}
