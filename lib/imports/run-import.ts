import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { importChunks, imports, type Import } from "@/db/schema";
import { queryRows } from "@/lib/db/sql";
import { log } from "@/lib/observability/logger";
import { commitBatch, type InFlight, LeaseLost } from "./commit-batch";
import { readRows, type FileRow } from "./read-rows";
import { type ImportRunOptions, MAX_IMPORT_TAKEOVERS } from "./run-options";

/**
 * Claims the oldest unfinished import whose lease is free (queued, or running under a lease that ran out
 * because its worker died) and applies it to the end. Returns false when there was nothing to claim.
 */
export async function runNextImport(ctx: AppContext<Db>, opts: ImportRunOptions): Promise<boolean> {
  const { db } = ctx;
  const owner = randomUUID();
  // A claim of a `running` import whose lease ran out is a takeover: the worker that held it died with it
  // (a graceful stop hands it back with no lease). After MAX_IMPORT_TAKEOVERS the import is failed instead,
  // so a file that kills its worker (out of memory, say) cannot take the worker and the pipeline down forever.
  const claimed = await queryRows<{ project_id: string; id: string; takeovers: number; rows_done: number }>(
    db,
    sql`
    update imports set state = 'running', lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${opts.leaseSeconds}),
      takeovers = takeovers + (state = 'running' and lease_until is not null)::int, updated_at = now()
    where (project_id, id) = (
      select project_id, id from imports
      where state in ('queued', 'running') and (lease_until is null or lease_until < now())
      order by created_at limit 1 for update skip locked)
    returning project_id, id, takeovers, rows_done`,
  );
  const key = claimed[0];
  if (!key) return false;
  if (key.takeovers >= MAX_IMPORT_TAKEOVERS) {
    const reason = `The import stopped its worker ${key.takeovers} times (the worker ran out of memory or was killed while applying the rows after row ${key.rows_done}); it is not taken again. Rows before that are applied.`;
    // One transaction: an import seen as failed never still holds its file.
    await db.transaction(async (tx) => {
      await tx
        .update(imports)
        .set({
          state: "failed",
          error: reason,
          finishedAt: new Date(),
          updatedAt: new Date(),
          leaseOwner: null,
          leaseUntil: null,
        })
        .where(and(eq(imports.projectId, key.project_id), eq(imports.id, key.id), eq(imports.leaseOwner, owner)));
      await tx
        .delete(importChunks)
        .where(and(eq(importChunks.projectId, key.project_id), eq(importChunks.importId, key.id)));
    });
    log.error({ importId: key.id, takeovers: key.takeovers }, "import failed: it stopped its worker repeatedly");
    return true;
  }
  const [imp] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.projectId, key.project_id), eq(imports.id, key.id)));
  if (!imp) return true;
  try {
    await applyImport(ctx, imp, owner, opts);
  } catch (err) {
    if (err instanceof LeaseLost) return true;
    throw err;
  }
  return true;
}

/**
 * Streams the file from the checkpoint on and applies it in batches through the set-based identity
 * path. Each batch commits its rows, its row errors and the new checkpoint in one transaction, so a
 * crash loses at most the batch in flight, which the next claim applies again from the same row.
 */
async function applyImport(ctx: AppContext<Db>, imp: Import, owner: string, opts: ImportRunOptions) {
  const { db } = ctx;
  const started = Date.now();
  let next = imp.rowsDone; // the first row of the next batch
  let previous: InFlight | null = null;
  const inFlight: Promise<void>[] = [];
  // Settles the oldest batch in flight; its error (LeaseLost, a database error) stops the run here.
  const settleOldest = () => inFlight.shift()!;
  const settleAll = async () => {
    while (inFlight.length) await settleOldest();
  };
  // Waits for a place among the batches in flight, then starts `rows` as the next batch. The last, short
  // batch waits too: started as one more, it made a chain the order check missed (commitBatch).
  const start = async (rows: FileRow[]) => {
    while (inFlight.length >= opts.parallel) await settleOldest();
    const self: InFlight = { done: Promise.resolve(), pid: null, previous, settled: false };
    self.done = commitBatch(ctx, { imp, owner, opts, rows, from: next, self });
    // Observed at once, so a failure before it is awaited is not an unhandled rejection.
    self.done.catch(() => {});
    next = rows[rows.length - 1]!.index + 1;
    previous = self;
    inFlight.push(self.done);
  };
  let batch: FileRow[] = [];
  let batchFrom = imp.bytesDone; // the file offset the batch's first row starts at
  try {
    try {
      for await (const row of readRows(ctx, imp)) {
        if (row.index < imp.rowsDone) {
          batchFrom = row.bytes;
          continue;
        }
        batch.push(row);
        if (batch.length >= opts.batchSize || row.bytes - batchFrom >= opts.batchBytes) {
          batchFrom = row.bytes;
          if (opts.stopping?.()) {
            await settleAll();
            return release(db, imp, owner);
          }
          await start(batch);
          batch = [];
        }
      }
      if (batch.length) await start(batch);
    } finally {
      // Whatever ended the loop, no batch is left running behind it.
      await Promise.allSettled(inFlight);
    }
    await settleAll();
  } catch (err) {
    if (err instanceof LeaseLost || !isFileError(err)) throw err;
    // The file itself cannot be read on (a parser failure that is not one row's): the import fails here.
    await db
      .update(imports)
      .set({
        state: "failed",
        error: String((err as Error).message).slice(0, 2000),
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(stillRunning(imp, owner));
    return;
  }
  await db.transaction(async (tx) => {
    const done = await tx
      .update(imports)
      .set({
        state: "done",
        rows: next,
        finishedAt: new Date(),
        updatedAt: new Date(),
        leaseOwner: null,
        leaseUntil: null,
      })
      .where(stillRunning(imp, owner))
      .returning({ id: imports.id });
    if (!done.length) throw new LeaseLost();
    // The file is no longer needed once every row is settled.
    await tx
      .delete(importChunks)
      .where(and(eq(importChunks.projectId, imp.projectId), eq(importChunks.importId, imp.id)));
  });
  log.info({ importId: imp.id, rows: next, ms: Date.now() - started }, "import done");
}

/** The import while this runner still holds its lease and it is still running (not cancelled meanwhile). */
const stillRunning = (imp: Import, owner: string) =>
  and(
    eq(imports.projectId, imp.projectId),
    eq(imports.id, imp.id),
    eq(imports.leaseOwner, owner),
    eq(imports.state, "running"),
  );

/** Hands an unfinished import back at its checkpoint, claimable at once by the next worker. */
async function release(db: Db, imp: Import, owner: string) {
  await db
    .update(imports)
    .set({ leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(imports.projectId, imp.projectId), eq(imports.id, imp.id), eq(imports.leaseOwner, owner)));
}

function isFileError(err: unknown): boolean {
  return (
    typeof (err as { code?: unknown })?.code === "string" &&
    /^(CSV_|IMPORT_CHUNK_MISSING$)/.test(String((err as { code: string }).code))
  );
}
