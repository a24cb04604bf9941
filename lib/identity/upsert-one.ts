import { sql, type SQL } from "drizzle-orm";
import { errorCode } from "@/lib/db/errors";
import { isRetryable, retryPause } from "@/lib/db/retry";
import { queryRows } from "@/lib/db/sql";
import { isTransaction } from "@/lib/db/transaction";
import { wakeIntakeAfter } from "@/lib/pipeline/wake-intake";
import { LATE_LIMIT } from "@/lib/schedules/cycles";
import { ANNIVERSARY, DEFAULT_OFFSET } from "@/lib/schedules/definitions";
import { pairKey } from "./pair-key";
import { MAX_RECORD_DATA_BYTES, MAX_RECORD_IDENTIFIERS, totalsError, type RecordTotals } from "./record-totals";
import type { StoredIdentifier } from "./resolve";
import type { Identifier } from "./schemas";
import type { Kind } from "./tables";
import { conflictError, type RecordChange } from "./upsert-records";
import type { ProjectContext } from "@/lib/access/context";

/** A record row as the function returns it (snake_case columns, timestamps as ISO text). */
export type RecordRow = { id: string; data: Record<string, unknown>; created_at: string; updated_at: string } & Record<
  string,
  unknown
>;

export interface UpsertedRecord {
  row: RecordRow;
  identifier: StoredIdentifier[];
  created: boolean;
  /** Whether the call recorded a system event (`*.created`, or `*.updated` when something changed). */
  event: boolean;
}

/** The SQLSTATE the upsert functions raise when a write would take a record past a total (record-totals.ts). */
const TOTALS_EXCEEDED = "RL422";
const ATTEMPTS = 8;

/**
 * The function per kind (db/migrations/0017_upsert_record_static.sql makes both from one template, and
 * 0025 is their current version), with the tables of KINDS written in as static SQL so PostgreSQL keeps
 * their plans.
 */
const FUNCTION = { user: sql`relay_upsert_user`, organization: sql`relay_upsert_organization` } satisfies Record<
  Kind,
  unknown
>;

/** What the SQL function needs to know that TypeScript owns as values: limits, the anniversary definition. */
const CONF = JSON.stringify({
  max_identifiers: MAX_RECORD_IDENTIFIERS,
  max_data_bytes: MAX_RECORD_DATA_BYTES,
  late_limit: LATE_LIMIT,
  anniversary: {
    name: ANNIVERSARY.name,
    type: ANNIVERSARY.type,
    builtin: "anniversary",
    interval: ANNIVERSARY.interval,
    offset: DEFAULT_OFFSET.offset,
    offset_key: DEFAULT_OFFSET.offsetKey,
    direction: DEFAULT_OFFSET.direction,
  },
});

/**
 * One upsert of one user or organization in one round trip: a single call of `relay_upsert_user` or
 * `relay_upsert_organization` (db/migrations/0017_upsert_record_static.sql, last replaced by 0025), run
 * on its own as an autocommit statement, so no BEGIN/COMMIT either. The rules are those of upsertRecords for one item with `conflicts: "reject"`:
 * any identifier matches; identifiers naming two records are a 409 with nothing written; columns set
 * (null clears) and data shallow-merged in SQL; `*.created` or `*.updated` (with the changed keys) and
 * its intake row in the same transaction; record totals; the anniversary assignment on creation. A
 * concurrent creator of a new identifier makes the call fail with 40001 and run again, when it finds the
 * pair and updates (inside a caller's transaction the error goes up to the caller's retry loop instead).
 */
export async function upsertOne(ctx: ProjectContext, kind: Kind, change: RecordChange): Promise<UpsertedRecord> {
  const { db, projectId } = ctx;
  const identifier = dedupe(change.identifier);
  const body = JSON.stringify({
    identifier,
    columns: change.columns ?? {},
    ...(change.data ? { data: change.data } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    try {
      const [r] = await queryRows<{ result: unknown }>(db, upsertOneCall(kind, projectId, body));
      const result = (typeof r!.result === "string" ? JSON.parse(r!.result) : r!.result) as
        | UpsertedRecord
        | { conflict: [string, string, string][] };
      if ("conflict" in result) throw conflict(kind, identifier, result.conflict);
      // Every call that writes leaves a system event in the intake; an unchanged record's call writes nothing.
      if (result.created || result.event) await wakeIntakeAfter(db);
      return result;
    } catch (err) {
      if (errorCode(err) === TOTALS_EXCEEDED)
        throw totalsError(kind, JSON.parse(errorDetail(err) ?? "{}") as RecordTotals, "") ?? err;
      if (!isRetryable(err) || attempt >= ATTEMPTS || isTransaction(db)) throw err;
      await retryPause(attempt);
    }
  }
}

/**
 * The one statement of an upsert: `body` is the change as JSON text, `{identifier, columns, data?}` with
 * the identifiers deduplicated. Exported for the plan tests, which run it under EXPLAIN.
 */
export function upsertOneCall(kind: Kind, projectId: string, body: string): SQL {
  return sql`select ${FUNCTION[kind]}(${projectId}::uuid, ${body}::jsonb, ${CONF}::jsonb) as result`;
}

/** Repeats of one pair fold into one, metadata shallow-merged in order (as upsertRecords folds them). */
function dedupe(list: Identifier[]): Identifier[] {
  const seen = new Map<string, Identifier>();
  for (const p of list) {
    const k = pairKey(p.source, p.external_id);
    const prev = seen.get(k);
    const metadata = prev?.metadata || p.metadata ? { ...prev?.metadata, ...p.metadata } : undefined;
    seen.set(k, { ...(prev ?? p), ...(metadata ? { metadata } : {}) });
  }
  return [...seen.values()];
}

function conflict(kind: Kind, identifier: Identifier[], owners: [string, string, string][]) {
  const owner = new Map(owners.map(([s, e, id]) => [pairKey(s, e), id]));
  const named = [
    ...new Set(identifier.map((p) => owner.get(pairKey(p.source, p.external_id))).filter((o) => o !== undefined)),
  ];
  return conflictError(kind, { identifier }, named, owner, "identifier");
}

/** The DETAIL of a PostgreSQL error (drizzle wraps the driver's error as `cause`). */
function errorDetail(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const detail = (e as { detail?: unknown }).detail;
    if (typeof detail === "string") return detail;
  }
  return undefined;
}
