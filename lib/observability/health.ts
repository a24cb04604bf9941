import type { Db } from "@/db/client";
import { readSystemState, type SystemState } from "./system-state";

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
export async function checkReadiness(db: Db, limits = readinessLimits()): Promise<Readiness> {
  let state: SystemState | null = null;
  let dbError = "";
  try {
    state = await Promise.race([
      readSystemState(db),
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

/** The JSON answer of a readiness endpoint: 200 when every check passes, 503 with Retry-After otherwise. */
export function readinessResponse(r: Readiness): { status: number; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (r.status !== "ok") headers["retry-after"] = "5";
  return { status: r.status === "ok" ? 200 : 503, headers, body: JSON.stringify(r) };
}
