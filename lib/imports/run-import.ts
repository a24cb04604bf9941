import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { importChunks, imports, type Import, type ImportRowError } from "@/db/schema";
import { inRetryingTransaction } from "@/lib/db/retry";
import { queryRows } from "@/lib/db/sql";
import { AppError } from "@/lib/http/errors";
import { zodIssuesToFieldErrors } from "@/lib/http/zod-errors";
import { upsertRecords } from "@/lib/identity/upsert-records";
import { withStepsInHand } from "@/lib/pipeline/enqueue-steps";
import { log } from "@/lib/observability/logger";
import { addMembers } from "@/lib/organizations/add-members";
import type { MembershipInput, OrganizationInput } from "@/lib/organizations/schemas";
import { organizationChange } from "@/lib/organizations/upsert-organization";
import type { UserInput } from "@/lib/users/schemas";
import { userChange } from "@/lib/users/upsert-user";
import { MAX_ROW_ERRORS, ROW_SCHEMAS, type ImportKind } from "./formats";
import { readRows, type FileRow } from "./read-rows";
import { systemContext, type ProjectContext } from "@/lib/access/context";

export interface ImportRunOptions {
  /** How long a claim lasts without a committed batch renewing it (a crashed worker's import is taken over after this). */
  leaseSeconds: number;
  /**
   * Rows per transaction. Larger than the batch endpoints' 1,000: every batch pays a fixed cost (the
   * lease check, the checkpoint update, a commit, and a handful of set-based statements), so fewer,
   * larger batches apply more rows per second; 10,000 keeps the totals check's id list well under
   * postgres's 65,535 bind parameters and a batch's memory small.
   */
  batchSize: number;
  /**
   * Bytes of the file per batch (IMPORT_BATCH_BYTES, default 2 MiB): a batch ends at whichever of
   * `batchSize` rows or this many bytes comes first, so the rows parsed and in flight at once stay small
   * whatever the rows hold (5,000 rows of 100 KiB would be half a gigabyte of objects).
   */
  batchBytes: number;
  /**
   * Batches in flight at once (IMPORT_PARALLEL, 1 to 4, default 2). A batch's rows are applied while the
   * one before it is still committing, so the database works on two cores; checkpoints still commit in
   * file order (see commitBatch).
   */
  parallel: number;
  /** Asked between batches: true makes the run hand the import back (lease released) and return. */
  stopping?: () => boolean;
}

export const DEFAULT_IMPORT_BATCH = 5000;
export const MAX_IMPORT_BATCH = 10_000;
export const DEFAULT_IMPORT_BATCH_BYTES = 2 * 1024 * 1024;
export const DEFAULT_IMPORT_PARALLEL = 2;
/** Claims of an import that lost their worker (its lease ran out) before the import is failed instead of taken again. */
export const MAX_IMPORT_TAKEOVERS = 2;
export const MAX_IMPORT_PARALLEL = 4;

export function importRunOptions(env = process.env): ImportRunOptions {
  return {
    leaseSeconds: Number(env.IMPORT_LEASE_SECONDS ?? 30),
    batchSize: Math.max(1, Math.min(MAX_IMPORT_BATCH, Number(env.IMPORT_BATCH) || DEFAULT_IMPORT_BATCH)),
    batchBytes: Math.max(
      64 * 1024,
      Math.min(64 * 1024 * 1024, Number(env.IMPORT_BATCH_BYTES) || DEFAULT_IMPORT_BATCH_BYTES),
    ),
    parallel: Math.max(
      1,
      Math.min(MAX_IMPORT_PARALLEL, Math.floor(Number(env.IMPORT_PARALLEL)) || DEFAULT_IMPORT_PARALLEL),
    ),
  };
}

/** This run no longer holds the import (cancelled, or its lease expired and another worker took it). */
class LeaseLost extends Error {}

/**
 * Claims the oldest unfinished import whose lease is free (queued, or running under a lease that ran out
 * because its worker died) and applies it to the end. Returns false when there was nothing to claim.
 */
export async function runNextImport(db: Db, opts: ImportRunOptions): Promise<boolean> {
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
    await applyImport(db, imp, owner, opts);
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
async function applyImport(db: Db, imp: Import, owner: string, opts: ImportRunOptions) {
  const started = Date.now();
  let next = imp.rowsDone; // the first row of the next batch
  let previous: InFlight = { done: Promise.resolve(), pid: null };
  const inFlight: Promise<void>[] = [];
  // Settles the oldest batch in flight; its error (LeaseLost, a database error) stops the run here.
  const settleOldest = () => inFlight.shift()!;
  const settleAll = async () => {
    while (inFlight.length) await settleOldest();
  };
  const start = (rows: FileRow[]) => {
    const self: InFlight = { done: Promise.resolve(), pid: null };
    self.done = commitBatch(db, imp, owner, opts, rows, next, previous, self);
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
      for await (const row of readRows(db, imp)) {
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
          while (inFlight.length >= opts.parallel) await settleOldest();
          start(batch);
          batch = [];
        }
      }
      if (batch.length) start(batch);
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

/** Hands an unfinished import back at its checkpoint, claimable at once by the next worker. */
/** The import while this runner still holds its lease and it is still running (not cancelled meanwhile). */
const stillRunning = (imp: Import, owner: string) =>
  and(
    eq(imports.projectId, imp.projectId),
    eq(imports.id, imp.id),
    eq(imports.leaseOwner, owner),
    eq(imports.state, "running"),
  );

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

/** A row error is kept short: it is stored, shown and logged, and the row's own content must not ride along. */
const capped = (message: string) => (message.length > 500 ? `${message.slice(0, 497)}...` : message);

/** The batch before this one had not committed in time, or failed: this one rolled back to go again after it. */
class NotInOrder extends Error {}

/** A batch in flight: its result, and the backend its transaction runs on (to see who blocks whom). */
interface InFlight {
  done: Promise<void>;
  pid: number | null;
}

/** How often a batch done applying checks whether the one before it waits for a lock this batch holds. */
const ORDER_CHECK_MS = 200;
/** A backstop for blocking PostgreSQL does not report directly (through a third transaction). */
const ORDER_WAIT_MS = 60_000;

/**
 * One batch in one transaction: valid rows applied together (an item the identity rules refuse, a
 * conflict or a missing record, becomes that row's error and the rest is applied again), refused rows
 * recorded with their line, and the checkpoint moved from `from` past the batch, all or nothing.
 *
 * With batches in flight at once, this batch applies its rows while `previous` is still committing, then
 * waits for it before taking the import row and moving the checkpoint; `rows_done = from` is checked under
 * that lock, so checkpoints commit in file order and a batch never commits unless every batch before it
 * did. If `previous` fails, or waits for a lock this batch holds (the same record in both: a deadlock
 * PostgreSQL cannot see, since this side waits in JavaScript; seen with pg_blocking_pids), this
 * transaction rolls back, releasing its locks, and runs again once `previous` has settled.
 */
async function commitBatch(
  db: Db,
  imp: Import,
  owner: string,
  opts: ImportRunOptions,
  rows: FileRow[],
  from: number,
  previous: InFlight,
  self: InFlight,
) {
  const errors: ImportRowError[] = [];
  let valid: { row: FileRow; body: unknown }[] = [];
  const schema = ROW_SCHEMAS[imp.kind];
  for (const row of rows) {
    if (row.error !== undefined) {
      errors.push({ line: row.line, message: row.error });
      continue;
    }
    const parsed = schema.safeParse(row.body);
    if (parsed.success) valid.push({ row, body: parsed.data });
    else
      errors.push({
        line: row.line,
        message: capped(
          zodIssuesToFieldErrors(parsed.error.issues)
            .slice(0, 5)
            .map((e) => (e.path ? `${e.path}: ${e.message}` : e.message))
            .join("; "),
        ),
      });
  }
  const last = rows[rows.length - 1]!;
  let before: InFlight | null = previous;
  for (;;) {
    try {
      await inRetryingTransaction(
        db,
        async (tx) => {
          self.pid = (await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]!.pid;
          if (valid.length)
            await applyRows(
              systemContext(tx, imp.projectId),
              imp.kind,
              valid.map((v) => v.body),
            );
          if (before) await inOrder(db, before, self.pid);
          const [held] = await queryRows<{ one: number }>(
            tx,
            sql`
            select 1 as one from imports where project_id = ${imp.projectId}::uuid and id = ${imp.id}::uuid
              and lease_owner = ${owner}::uuid and state = 'running' and rows_done = ${from} for update`,
          );
          if (!held) throw new LeaseLost();
          // The first MAX_ROW_ERRORS of the import are kept: how many earlier batches kept is read here, under the lock.
          await tx.execute(sql`
            update imports set rows_done = ${last.index + 1}, rows = greatest(rows, ${last.index + 1}), bytes_done = ${last.bytes},
              processed = processed + ${valid.length}, failed = failed + ${errors.length},
              errors = errors || coalesce((
                select jsonb_agg(e order by n) from jsonb_array_elements(${JSON.stringify(errors)}::jsonb) with ordinality as x(e, n)
                where n <= ${MAX_ROW_ERRORS} - jsonb_array_length(errors)), '[]'::jsonb),
              lease_until = now() + make_interval(secs => ${opts.leaseSeconds}), updated_at = now()
            where project_id = ${imp.projectId}::uuid and id = ${imp.id}::uuid`);
        },
        20,
      );
      return;
    } catch (err) {
      if (err instanceof NotInOrder) {
        // Go again once the batch before has settled; if it failed, the run stops with its error.
        await previous.done;
        before = null;
        continue;
      }
      const at = rowIndexOf(err);
      if (at === null) throw err;
      // One item the identity rules refuse: it becomes a row error, the others go again.
      const refused = valid[at]!;
      const first = (err as AppError).errors?.[0];
      errors.push({ line: refused.row.line, message: `${first!.path.replace(/^\[\d+\]\.?/, "")}: ${first!.message}` });
      errors.sort((a, b) => a.line - b.line);
      valid = valid.filter((_, i) => i !== at);
    }
  }
}

/**
 * Resolves once `previous` committed. Throws NotInOrder when it failed, when it waits for a lock held by
 * `pid` (this batch's backend), or after ORDER_WAIT_MS.
 */
async function inOrder(db: Db, previous: InFlight, pid: number) {
  const failed = previous.done.then(
    () => true,
    () => false,
  );
  const deadline = Date.now() + ORDER_WAIT_MS;
  for (;;) {
    const settled = await Promise.race([failed, new Promise<null>((r) => setTimeout(() => r(null), ORDER_CHECK_MS))]);
    if (settled === true) return;
    if (settled === false || Date.now() > deadline) throw new NotInOrder();
    if (previous.pid === null) continue;
    const [row] = await queryRows<{ blocked: boolean }>(
      db,
      sql`select ${pid}::int = any(pg_blocking_pids(${previous.pid}::int)) as blocked`,
    );
    if (row?.blocked) throw new NotInOrder();
  }
}

/** The batch item a conflict or a missing-record error names (`[12].identifier`), or null for other errors. */
function rowIndexOf(err: unknown): number | null {
  if (!(err instanceof AppError) || (err.status !== 409 && err.status !== 404)) return null;
  const m = /^\[(\d+)\]/.exec(err.errors?.[0]?.path ?? "");
  return m ? Number(m[1]) : null;
}

/** One batch's rows; their system events go straight to steps 2-4, not through event_intake (lib/pipeline/enqueue-steps.ts). */
async function applyRows(ctx: ProjectContext, kind: ImportKind, bodies: unknown[]) {
  const path = (i: number) => `[${i}].identifier`;
  await withStepsInHand(ctx, async () => {
    if (kind === "users")
      await upsertRecords(ctx, {
        kind: "user",
        items: (bodies as UserInput[]).map(userChange),
        conflicts: "reject",
        path,
      });
    else if (kind === "organizations")
      await upsertRecords(ctx, {
        kind: "organization",
        items: (bodies as OrganizationInput[]).map(organizationChange),
        conflicts: "reject",
        path,
      });
    else await addMembers(ctx, { memberships: bodies as MembershipInput[], path: (i) => `[${i}].` });
  });
}
