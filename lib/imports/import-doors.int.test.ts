import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import {
  ensureWorker,
  getImport,
  importProjectForFile,
  killWorkers,
  p,
  spawnWorker,
  upload,
} from "../../test/fixtures/imports";

/*
 * Issue 33, finding 1: one import must never stop the worker, nor the pipeline with it. The worker runs
 * under a realistic heap limit; the file is the attacker's (rows just under 1 MiB, each of 330,000 empty
 * objects), mixed with rows that pass the byte limit but not the value count, and rows that are valid.
 */
// A database of its own: the workers here take the oldest unfinished import of any project, so another
// file's import in the shared database would keep them busy past these tests' waits, and other files'
// workers (with the default lease) would take this file's imports over.
importProjectForFile("relay_import_doors", "import-doors");

const recorded = async (prefix: string) =>
  (await sql`select count(*)::int as n from events where project_id = ${p.projectId} and name like ${`${prefix}%`}`)[0]!
    .n as number;

/** One NDJSON user row whose `data.x` holds `n` empty objects. */
const emptyObjects = (id: string, n: number) =>
  `{"identifier":[{"external_id":"${id}"}],"data":{"x":[${"{},".repeat(n - 1)}{}]}}`;

describe("1. an import cannot crash-loop the worker", () => {
  it("rows are bounded before parsing: the worker (512 MiB heap) finishes the import and the pipeline records events throughout", async () => {
    const worker = await spawnWorker({ NODE_OPTIONS: "--max-old-space-size=512" });
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) lines.push(emptyObjects(`huge-${i}`, 330_000)); // ~990 KB each: over the row byte limit
    for (let i = 0; i < 100; i++) lines.push(emptyObjects(`many-${i}`, 40_000)); // ~120 KB: under it, too many values
    for (let i = 0; i < 300; i++) lines.push(emptyObjects(`fine-${i}`, 5_000)); // 15 KB of data: valid
    const res = await upload(`${lines.join("\n")}\n`, "application/x-ndjson");
    expect(res.status).toBe(202);
    const id = res.body.id as string;

    // Events sent while the import runs are recorded while it runs, and after.
    let sent = 0;
    let recordedWhileRunning = 0;
    const send = async () => {
      const r = await api("POST", p.client("/users/events"), {
        key: p.keys.client,
        body: [{ name: `Beat-${sent++}`, identifier: [{ external_id: "beat" }], data: {} }],
      });
      expect(r.status).toBe(202);
    };
    const done = await waitFor(
      async () => {
        await send();
        const v = await getImport(id);
        if (v.state === "running" || v.state === "queued") recordedWhileRunning = await recorded("Beat-");
        return ["done", "failed", "cancelled"].includes(v.state) && v;
      },
      300_000,
      "the import to finish",
    );
    expect(done).toMatchObject({ state: "done", rows: 440, processed: 300, failed: 140 });
    expect(done.errors[0]).toEqual({ line: 1, message: expect.stringMatching(/longer than 131072 bytes/) });
    expect(done.errors[40]).toEqual({ line: 41, message: expect.stringMatching(/more than 20000 JSON values/) });
    expect(worker.child.exitCode).toBeNull();
    expect(worker.output()).not.toMatch(/heap out of memory|worker crashed/);
    expect(recordedWhileRunning).toBeGreaterThan(0);
    await send();
    await waitFor(async () => (await recorded("Beat-")) === sent, 60_000, "every event recorded after the import");
  }, 400_000);
});

describe("an import that stopped its worker twice", () => {
  it("is marked failed with a reason instead of being taken a third time", async () => {
    await killWorkers();
    const lines = ["external_id,data.n"];
    for (let i = 0; i < 100_000; i++) lines.push(`twice-${i},${i}`);
    const res = await upload(lines.join("\n"), "text/csv");
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    const env = { IMPORT_LEASE_SECONDS: "2", IMPORT_BATCH: "500" };
    const owner = async () =>
      (await sql`select lease_owner, takeovers from imports where project_id = ${p.projectId} and id = ${id}`)[0]!;

    const first = await spawnWorker(env);
    await waitFor(async () => (await getImport(id)).processed > 0 && true, 120_000, "the first batches");
    await first.stop("SIGKILL");
    const second = await spawnWorker(env);
    await waitFor(async () => (await owner()).takeovers === 1 && true, 120_000, "the first takeover");
    const before = (await getImport(id)).processed;
    await waitFor(async () => (await getImport(id)).processed > before && true, 120_000, "batches after the takeover");
    await second.stop("SIGKILL");
    await spawnWorker(env);
    const failed = await waitFor(
      async () => {
        const v = await getImport(id);
        return v.state !== "running" && v;
      },
      120_000,
      "the import to be failed",
    );
    expect(failed.state).toBe("failed");
    expect(failed.error).toMatch(/stopped its worker 2 times/);
    expect(failed.processed).toBeGreaterThan(0);
    expect(failed.processed).toBeLessThan(100_000);
    expect((await owner()).takeovers).toBe(2);
    expect((await sql`select count(*)::int as n from import_chunks where import_id = ${id}`)[0]!.n).toBe(0);
  }, 600_000);
});

describe("stale uploads", () => {
  it("an upload cut off mid-stream (its web process died) is failed and its chunks dropped by the worker", async () => {
    const [row] = await sql`insert into imports (project_id, id, kind, format, state, bytes, chunks, updated_at)
      values (${p.projectId}, gen_random_uuid(), 'users', 'csv', 'uploading', 3, 1, now() - interval '1 hour') returning id`;
    await sql`insert into import_chunks (project_id, import_id, seq, bytes) values (${p.projectId}, ${row!.id}, 0, ${Buffer.from("a\n")})`;
    await ensureWorker();
    const swept = await waitFor(
      async () => {
        const v = await getImport(row!.id);
        return v.state === "failed" && v;
      },
      120_000,
      "the sweep",
    );
    expect(swept.error).toMatch(/cut off/);
    expect((await sql`select count(*)::int as n from import_chunks where import_id = ${row!.id}`)[0]!.n).toBe(0);
  }, 200_000);
});
