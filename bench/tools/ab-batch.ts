import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { createTestDatabase } from "../../scripts/test/database";
import { newUsersBody } from "../bodies";

/**
 * Two checkouts' batch path compared side by side: `npx tsx bench/tools/ab-batch.ts <dir A> <dir B>` (each a
 * checkout with node_modules, e.g. a `git worktree` of the commit before a change and this one).
 * Each side is a process of its own, started in its checkout with that checkout's tsconfig (so its
 * `@/` imports are its own code: one process importing both trees would resolve them all to one), and
 * upserts batches of 1,000 new users (this checkout's bench/bodies.ts, for both sides) through its
 * upsertUsers, in its own project of one fresh database, with one connection. Blocks of PER (default 5)
 * batches alternate A B, B A, ... BLOCKS (default 40) times, one side at a time. Per block a side reports
 * its PostgreSQL backend's CPU (from /proc) and its own process's CPU (its JavaScript), per user; the
 * mean paired difference B - A is printed with its standard error.
 *
 * Why: on a shared machine the same build's CPU per batched user drifts by a quarter over minutes, so a
 * few pairs of whole-server runs cannot show a change of a few percent. Short interleaved blocks put both sides in the same minute, and the paired
 * differences cancel the drift. No HTTP, no response: a change to those needs bench/tools/profile-route.ts.
 * NO_GIN=1 drops users_data_gin first: its pending list is merged by whichever insert fills it, which
 * puts a spike into one side's block at random.
 */
const BLOCKS = Number(process.env.BLOCKS ?? 40);
const PER = Number(process.env.PER ?? 5);

type Block = { pg: number; js: number };

/** CPU ms of a process (utime + stime, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

if (process.env.AB_SIDE) await runSide(process.env.AB_SIDE, Number(process.env.AB_INDEX));
else await compare();

/** One side: its own verbs and pool; answers each "block" message with that block's CPU per user. */
async function runSide(dir: string, n: number) {
  const { getDb, closeDatabase } = await import(`${dir}/db/client.ts`);
  const { stopBoss } = await import(`${dir}/lib/queue/boss.ts`);
  const { createProjectWithOwner } = await import(`${dir}/lib/projects/create-project.ts`);
  const { systemContext } = await import(`${dir}/lib/access/context.ts`);
  const { upsertUsers } = await import(`${dir}/lib/users/upsert-user.ts`);
  const { userBatchInput } = await import(`${dir}/lib/users/schemas.ts`);
  const handle = getDb();
  const { project } = await createProjectWithOwner(
    { db: handle },
    { orgName: "ab", projectName: `side ${n}`, ownerEmail: `ab${n}@example.com` },
  );
  const ctx = systemContext(handle, project.id);
  const [row] = (await handle.execute("select pg_backend_pid() as pid")) as unknown as { pid: number }[];
  const backend = row!.pid;
  const batch = () => upsertUsers(ctx, userBatchInput.parse(JSON.parse(newUsersBody(`ab${n}`))));
  // Warm the code and the plans.
  for (let i = 0; i < 5; i++) await batch();
  process.on("message", async (m: string) => {
    if (m === "stop") {
      await stopBoss();
      await closeDatabase();
      process.exit(0);
    }
    const pg0 = cpuMs(backend);
    const js0 = cpuMs(process.pid);
    for (let i = 0; i < PER; i++) await batch();
    const block: Block = {
      pg: ((cpuMs(backend) - pg0) * 1000) / (PER * 1000),
      js: ((cpuMs(process.pid) - js0) * 1000) / (PER * 1000),
    };
    process.send!(block);
  });
  process.send!("ready");
}

async function compare() {
  const dirs = process.argv.slice(2).map((d) => path.resolve(d));
  if (dirs.length !== 2) throw new Error("usage: tsx bench/tools/ab-batch.ts <checkout A> <checkout B>");
  const db = await createTestDatabase("relay_ab");
  const admin = postgres(db.url, { max: 1, onnotice: () => {} });
  if (process.env.NO_GIN) await admin`drop index users_data_gin`;
  const self = fileURLToPath(import.meta.url);
  const sides = dirs.map((dir, n) => {
    const child = fork(self, [], {
      cwd: dir,
      execArgv: ["--import", "tsx"],
      // One connection, so the side's statements all run in the backend whose CPU is read.
      env: {
        ...process.env,
        AB_SIDE: dir,
        AB_INDEX: String(n),
        TSX_TSCONFIG_PATH: path.join(dir, "tsconfig.json"),
        DATABASE_URL: db.url,
        DATABASE_POOL_SIZE: "1",
      },
    });
    const side = {
      dir,
      child,
      stopping: false,
      next: () => new Promise<unknown>((resolve) => child.once("message", resolve)),
      blocks: [] as Block[],
    };
    child.once("exit", (code) => {
      if (side.stopping) return;
      console.error(`side ${dir} exited (${code})`);
      process.exit(1);
    });
    return side;
  });
  try {
    await Promise.all(sides.map((s) => s.next()));
    for (let k = 0; k < BLOCKS; k++) {
      for (const s of k % 2 ? [...sides].reverse() : sides) {
        // Each block starts after a checkpoint, so full-page images fall alike on both sides.
        await admin`checkpoint`;
        const reply = s.next();
        s.child.send("block");
        s.blocks.push((await reply) as Block);
      }
    }
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    const se = (xs: number[]) =>
      Math.sqrt(xs.reduce((t, x) => t + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
    const [sa, sb] = sides as [(typeof sides)[number], (typeof sides)[number]];
    const line = (label: string, f: (b: Block) => number) => {
      const a = sa.blocks.map(f);
      const b = sb.blocks.map(f);
      const d = b.map((x, i) => x - a[i]!);
      console.log(
        `${label.padEnd(22)} A ${mean(a).toFixed(1).padStart(6)}  B ${mean(b).toFixed(1).padStart(6)}  B - A ${mean(d).toFixed(1).padStart(5)} ± ${se(d).toFixed(1)} (s.e.)`,
      );
    };
    console.log(
      `A = ${sa.dir}\nB = ${sb.dir}\n${BLOCKS} blocks of ${PER} batches of 1,000 new users per side, µs per user:`,
    );
    line("PostgreSQL backend CPU", (b) => b.pg);
    line("JavaScript CPU", (b) => b.js);
  } finally {
    for (const s of sides) {
      s.stopping = true;
      const gone = new Promise((resolve) => s.child.once("exit", resolve));
      s.child.send("stop");
      await gone;
    }
    await admin.end();
    await db.drop();
  }
}
