import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { readSystemState, type SystemState } from "./system-state";
import { processSingleton } from "@/lib/process/singleton";

export interface Check {
  ok: boolean;
  detail: string;
  value?: number | null;
  limit?: number;
}

export interface Readiness {
  status: "ok" | "unavailable";
  checks: Record<"database" | "migrations" | "worker" | "intake_backlog" | "intake_age", Check>;
}

export function readinessLimits(env = process.env) {
  return {
    heartbeatSeconds: Number(env.HEALTH_MAX_HEARTBEAT_AGE_SECONDS ?? 30),
    backlog: Number(env.HEALTH_MAX_INTAKE_BACKLOG ?? 100_000),
    ageSeconds: Number(env.HEALTH_MAX_INTAKE_AGE_SECONDS ?? 300),
  };
}

/** Readiness never waits long: a database that does not answer within this is reported as down. */
const TIMEOUT_MS = 3000;

/**
 * Whether this deployment can do its work: the database answers, migrations are at head, a worker beat
 * recently, and the intake is keeping up. Every check is listed, so an operator sees which one failed.
 */
export async function checkReadiness(ctx: AppContext<Db>, limits = readinessLimits()): Promise<Readiness> {
  let state: SystemState | null = null;
  let dbError = "";
  try {
    state = await Promise.race([
      // Counted only as far as the threshold: a backlog past it is "too many" whatever its size.
      readSystemState(ctx, { cap: limits.backlog + 1 }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref(),
      ),
    ]);
  } catch (err) {
    dbError = (err as Error).message;
  }
  const unknown: Check = { ok: false, detail: "unknown: the database is unreachable" };
  const checks: Readiness["checks"] = state
    ? {
        database: { ok: true, detail: "reachable" },
        migrations: {
          ok: state.migrationsAtHead,
          detail: state.migrationsAtHead
            ? `at head (${state.migrationsHead})`
            : `behind: ${state.migrationsApplied} applied, head is ${state.migrationsHead}`,
        },
        worker: {
          ok: state.heartbeatAgeSeconds !== null && state.heartbeatAgeSeconds <= limits.heartbeatSeconds,
          detail:
            state.heartbeatAgeSeconds === null
              ? "no worker heartbeat ever seen"
              : `last heartbeat ${state.heartbeatAgeSeconds.toFixed(1)} s ago`,
          value: state.heartbeatAgeSeconds,
          limit: limits.heartbeatSeconds,
        },
        intake_backlog: {
          ok: state.intakeBacklog <= limits.backlog,
          detail: `${state.intakeBacklog} events waiting`,
          value: state.intakeBacklog,
          limit: limits.backlog,
        },
        intake_age: {
          ok: state.intakeOldestSeconds <= limits.ageSeconds,
          detail: `oldest waiting event is ${state.intakeOldestSeconds.toFixed(1)} s old`,
          value: state.intakeOldestSeconds,
          limit: limits.ageSeconds,
        },
      }
    : {
        database: { ok: false, detail: `unreachable: ${dbError}` },
        migrations: unknown,
        worker: unknown,
        intake_backlog: unknown,
        intake_age: unknown,
      };
  return { status: Object.values(checks).every((c) => c.ok) ? "ok" : "unavailable", checks };
}

/** How long one readiness result answers every caller (HEALTH_CACHE_SECONDS, default 5; 0 turns it off). */
const cacheMs = () => Math.max(0, Number(process.env.HEALTH_CACHE_SECONDS ?? 5) || 0) * 1000;

type Cached = { at: number; result: Promise<Readiness> };
const readiness = processSingleton("readiness", (): { cached?: Cached } => ({}));

/**
 * The readiness result, computed at most once per HEALTH_CACHE_SECONDS per process: the endpoint is public,
 * and however often it is called the database answers one query per interval (callers arriving while it
 * runs share it).
 */
export function cachedReadiness(ctx: AppContext<Db>): Promise<Readiness> {
  const now = Date.now();
  const hit = readiness.cached;
  if (hit && now - hit.at < cacheMs()) return hit.result;
  const result = checkReadiness(ctx);
  readiness.cached = { at: now, result };
  return result;
}

/** What anyone may see: each check's name and verdict, without values or database error text. */
function publicView(r: Readiness) {
  return {
    status: r.status,
    checks: Object.fromEntries(Object.entries(r.checks).map(([name, c]) => [name, { ok: c.ok }])),
  };
}

/**
 * The JSON answer of a readiness endpoint: 200 when every check passes, 503 with Retry-After otherwise.
 * Details (values, limits, why a check failed) only when `detailed` (a METRICS_TOKEN bearer).
 */
export function readinessResponse(
  r: Readiness,
  detailed: boolean,
): { status: number; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (r.status !== "ok") headers["retry-after"] = "5";
  return { status: r.status === "ok" ? 200 : 503, headers, body: JSON.stringify(detailed ? r : publicView(r)) };
}
