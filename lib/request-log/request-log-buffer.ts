import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { storableJson } from "@/lib/db/storable-text";
import { log } from "@/lib/observability/logger";
import type { FieldError } from "@/lib/http/errors";
import { processSingleton } from "@/lib/process/singleton";

export interface LoggedRequest {
  projectId: string;
  keyId: string;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  errors: FieldError[] | null;
  body: string | null;
}

/** At most this many requests wait in memory; beyond it (the database down for long) new ones are dropped and counted. */
const MAX_BUFFERED = 20_000;
const FLUSH_MS = 1000;

type State = {
  buffer: LoggedRequest[];
  /** Rate-limited (429) requests per project and minute: counted in the rollups, never logged one by one. */
  limited: Map<string, number>;
  dropped: number;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
};
const state: State = processSingleton("requestLog", () => ({
  buffer: [],
  limited: new Map(),
  dropped: 0,
  timer: null,
  flushing: null,
}));
state.limited ??= new Map();

/** At most this many project-minutes of 429 counts wait in memory (each is one number). */
const MAX_LIMITED_KEYS = 10_000;

/** Counts one rate-limited request for its project's rollup (`requests.rejected` and `requests.limited`). */
export function countLimited(projectId: string): void {
  const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  const key = `${projectId}|${minute}`;
  if (!state.limited.has(key) && state.limited.size >= MAX_LIMITED_KEYS) {
    state.dropped++;
    return;
  }
  state.limited.set(key, (state.limited.get(key) ?? 0) + 1);
  schedule();
}

function schedule() {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    void flushRequestLog();
  }, FLUSH_MS);
  state.timer.unref?.();
}

/**
 * Queues one request for the log. Never on the request's critical path: an array push; a timer (unref'd,
 * so it never keeps the process alive) writes the buffer every second in one statement.
 */
export function logRequest(entry: LoggedRequest): void {
  if (state.buffer.length >= MAX_BUFFERED) {
    state.dropped++;
    return;
  }
  state.buffer.push(entry);
  schedule();
}

/**
 * Writes the buffered requests and their accepted/rejected counts per minute, in one transaction. A failed
 * write puts the rows back (bounded by MAX_BUFFERED) and retries on the next tick.
 */
export async function flushRequestLog(): Promise<void> {
  if (state.flushing) return state.flushing;
  const batch = state.buffer.splice(0, 5000);
  const limited = state.limited;
  if (!batch.length && !limited.size) return;
  state.limited = new Map();
  state.flushing = (async () => {
    try {
      if (limited.size) await writeLimited(limited).catch((err) => putBackLimited(limited, err));
      if (batch.length) await writeIsolated(batch);
      if (state.dropped) {
        log.warn({ dropped: state.dropped }, "request log buffer was full; requests were not logged");
        state.dropped = 0;
      }
    } catch (err) {
      const unwritten = err instanceof Unwritten ? err.rows : batch;
      log.warn(
        { err: err instanceof Unwritten ? err.cause : err, rows: unwritten.length },
        "request log flush failed; will retry",
      );
      state.buffer.unshift(...unwritten.slice(0, Math.max(0, MAX_BUFFERED - state.buffer.length)));
    } finally {
      state.flushing = null;
      if (state.buffer.length || state.limited.size) schedule();
    }
  })();
  return state.flushing;
}

/** Counts that could not be written go back, added to whatever came in meanwhile (bounded like new ones). */
function putBackLimited(limited: Map<string, number>, err: unknown) {
  log.warn({ err, minutes: limited.size }, "rate-limited counts not written; will retry");
  for (const [key, n] of limited) {
    if (!state.limited.has(key) && state.limited.size >= MAX_LIMITED_KEYS) continue;
    state.limited.set(key, (state.limited.get(key) ?? 0) + n);
  }
}

async function writeLimited(limited: Map<string, number>) {
  const rows = [...limited]
    .flatMap(([key, c]) => {
      const [p, m] = key.split("|") as [string, string];
      return [
        { p, k: "requests.rejected", m, c },
        { p, k: "requests.limited", m, c },
      ];
    })
    .sort((a, b) => (a.p + a.k + a.m < b.p + b.k + b.m ? -1 : 1));
  await getDb().execute(sql`
    insert into project_rollups as r (project_id, metric, minute, count)
    select x.p, x.k, x.m, x.c
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(p uuid, k text, m timestamptz, c bigint)
    where exists (select 1 from projects pr where pr.id = x.p)
    on conflict (project_id, metric, minute) do update set count = r.count + excluded.count`);
}

/** The rows not yet written when the database went away in the middle of isolating a refused row. */
class Unwritten extends Error {
  constructor(
    readonly rows: LoggedRequest[],
    override readonly cause: unknown,
  ) {
    super("request log rows unwritten");
  }
}

/**
 * Writes a batch; when the database refuses it for its content rather than for being away, halves it until
 * the offending rows stand alone and drops only those. One row PostgreSQL cannot store must never hold back
 * every later request (a retried poison batch once stopped the log and the overview's counts for good).
 */
async function writeIsolated(batch: LoggedRequest[]): Promise<void> {
  try {
    await writeBatch(batch);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw new Unwritten(batch, err);
    if (batch.length === 1) {
      log.error({ err, requestId: batch[0]!.requestId }, "request log row refused by the database; dropped");
      return;
    }
    const half = Math.ceil(batch.length / 2);
    try {
      await writeIsolated(batch.slice(0, half));
    } catch (e) {
      if (e instanceof Unwritten) throw new Unwritten([...e.rows, ...batch.slice(half)], e.cause);
      throw e;
    }
    await writeIsolated(batch.slice(half));
  }
}

async function writeBatch(batch: LoggedRequest[]) {
  const rows = batch.map((r) => ({
    p: r.projectId,
    k: r.keyId,
    a: r.at,
    me: r.method,
    pa: r.path,
    s: r.status,
    d: r.durationMs,
    r: r.requestId,
    e: r.errors,
    b: r.body,
  }));
  const counts = new Map<string, { p: string; k: string; m: string; c: number }>();
  for (const r of batch) {
    const metric = r.status < 400 ? "requests.accepted" : "requests.rejected";
    const minute = new Date(Math.floor(Date.parse(r.at) / 60_000) * 60_000).toISOString();
    const key = `${r.projectId}|${metric}|${minute}`;
    const c = counts.get(key);
    if (c) c.c++;
    else counts.set(key, { p: r.projectId, k: metric, m: minute, c: 1 });
  }
  const rollup = [...counts.values()].sort((a, b) => (a.p + a.k + a.m < b.p + b.k + b.m ? -1 : 1));
  await getDb().transaction(async (tx) => {
    // Rows of a project deleted meanwhile are dropped rather than failing the batch on the foreign key.
    await tx.execute(sql`
      insert into api_requests (project_id, key_id, at, method, path, status, duration_ms, request_id, errors, body)
      select x.p, x.k, x.a, x.me, x.pa, x.s, x.d, x.r, x.e, x.b
      from jsonb_to_recordset(${storableJson(rows)}::jsonb) as x(p uuid, k uuid, a timestamptz, me text, pa text, s smallint, d int, r text, e jsonb, b text)
      where exists (select 1 from projects pr where pr.id = x.p)`);
    await tx.execute(sql`
      insert into project_rollups as r (project_id, metric, minute, count)
      select x.p, x.k, x.m, x.c
      from jsonb_to_recordset(${JSON.stringify(rollup)}::jsonb) as x(p uuid, k text, m timestamptz, c bigint)
      where exists (select 1 from projects pr where pr.id = x.p)
      on conflict (project_id, metric, minute) do update set count = r.count + excluded.count`);
  });
}
