import { sql } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import type { Import, ImportRowError } from "@/db/schema";
import { inRetryingTransaction } from "@/lib/db/retry";
import { queryRows } from "@/lib/db/sql";
import { AppError } from "@/lib/http/errors";
import { zodIssuesToFieldErrors } from "@/lib/http/zod-errors";
import { upsertRecords } from "@/lib/identity/upsert-records";
import { bypassIntake } from "@/lib/pipeline/enqueue-steps";
import { addMembers } from "@/lib/organizations/add-members";
import type { MembershipInput, OrganizationInput } from "@/lib/organizations/schemas";
import { organizationChange } from "@/lib/organizations/upsert-organization";
import type { UserInput } from "@/lib/users/schemas";
import { userChange } from "@/lib/users/upsert-user";
import { MAX_ROW_ERRORS, ROW_SCHEMAS, type ImportKind } from "./formats";
import type { FileRow } from "./read-rows";
import { type AppContext, systemContext, type ProjectContext } from "@/lib/access/context";
import type { ImportRunOptions } from "./run-options";

/** This run no longer holds the import (cancelled, or its lease expired and another worker took it). */
export class LeaseLost extends Error {}

/** A row error is kept short: it is stored, shown and logged, and the row's own content must not ride along. */
const capped = (message: string) => (message.length > 500 ? `${message.slice(0, 497)}...` : message);

/** The batch before this one had not committed in time, or failed: this one rolled back to go again after it. */
class NotInOrder extends Error {}

/**
 * A batch in flight: its result, the backend its transaction runs on while it has one (to see who blocks
 * whom), and the batch before it while this one has not settled.
 */
export interface InFlight {
  done: Promise<void>;
  pid: number | null;
  previous: InFlight | null;
  settled: boolean;
}

/** One batch of an import run: its rows, where they start, and the batches in flight around it. */
export interface BatchInput {
  imp: Import;
  /** The run's lease owner: the batch commits only while the run still holds the import. */
  owner: string;
  opts: ImportRunOptions;
  rows: FileRow[];
  /** The checkpoint the batch starts at (its first row's index). */
  from: number;
  /** This batch: its backend's pid is set here, for later batches' order check; `self.previous` commits first. */
  self: InFlight;
}

/** How often a batch done applying checks whether a batch before it waits for a lock this batch holds. */
const ORDER_CHECK_MS = 200;

/**
 * One batch in one transaction: valid rows applied together (an item the identity rules refuse, a
 * conflict or a missing record, becomes that row's error and the rest is applied again), refused rows
 * recorded with their line, and the checkpoint moved from `from` past the batch, all or nothing.
 *
 * With batches in flight at once, this batch applies its rows while `previous` is still committing, then
 * waits for it before taking the import row and moving the checkpoint; `rows_done = from` is checked under
 * that lock, so checkpoints commit in file order and a batch never commits unless every batch before it
 * did. If `previous` fails, or any earlier batch still in flight waits for a lock this batch holds (the
 * same record in both: a deadlock PostgreSQL cannot see, since this side waits in JavaScript; seen with
 * pg_blocking_pids), this transaction rolls back, releasing its locks, and runs again once `previous` has
 * settled. Any earlier batch, not only `previous`: one that stepped back waits for its own predecessor
 * holding no transaction, and the batch it waits for may be the one blocked by this batch.
 */
export async function commitBatch(ctx: AppContext<Db>, input: BatchInput) {
  const { db } = ctx;
  const { imp, owner, opts, rows, from, self } = input;
  const previous = self.previous;
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
  try {
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
            if (before) await inOrder(tx, before, self.pid, opts.orderWaitMs);
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
        // No transaction now: a later batch's order check must not look at a backend this batch left.
        self.pid = null;
        if (err instanceof NotInOrder) {
          // Go again once the batch before has settled; if it failed, the run stops with its error.
          await previous!.done;
          before = null;
          continue;
        }
        const at = rowIndexOf(err);
        if (at === null) throw err;
        // One item the identity rules refuse: it becomes a row error, the others go again.
        const refused = valid[at]!;
        const first = (err as AppError).errors?.[0];
        errors.push({
          line: refused.row.line,
          message: `${first!.path.replace(/^\[\d+\]\.?/, "")}: ${first!.message}`,
        });
        errors.sort((a, b) => a.line - b.line);
        valid = valid.filter((_, i) => i !== at);
      }
    }
  } finally {
    // Settled: later batches stop their walk back here, and the chain behind it can be collected.
    self.pid = null;
    self.settled = true;
    self.previous = null;
  }
}

/**
 * Resolves once `previous` committed. Throws NotInOrder when it failed, when it or any batch before it
 * still in flight waits for a lock held by `pid` (this batch's backend), or after `waitMs`.
 *
 * The check runs on this batch's own transaction (`tx`, idle while it waits here; pg_blocking_pids reads
 * the lock table, not a snapshot, and takes no lock), never on the pool: with the batches in flight and
 * the worker's other work holding every pool connection (some of them waiting for this batch's locks), a
 * check waiting for a connection of its own would wait forever, and so would the import.
 */
async function inOrder(tx: Transaction, previous: InFlight, pid: number, waitMs: number) {
  const failed = previous.done.then(
    () => true,
    () => false,
  );
  const deadline = Date.now() + waitMs;
  for (;;) {
    const settled = await Promise.race([failed, new Promise<null>((r) => setTimeout(() => r(null), ORDER_CHECK_MS))]);
    if (settled === true) return;
    if (settled === false || Date.now() > deadline) throw new NotInOrder();
    const pids: number[] = [];
    for (let b: InFlight | null = previous; b && !b.settled; b = b.previous) if (b.pid !== null) pids.push(b.pid);
    if (!pids.length) continue;
    const [row] = await queryRows<{ blocked: boolean }>(
      tx,
      sql`select exists (select 1 from jsonb_array_elements_text(${JSON.stringify(pids)}::jsonb) p
        where ${pid}::int = any(pg_blocking_pids(p::int))) as blocked`,
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
  await bypassIntake(ctx, async () => {
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
