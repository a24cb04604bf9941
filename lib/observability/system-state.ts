import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import journal from "@/db/migrations/meta/_journal.json";

export interface SystemState {
  intakeBacklog: number;
  intakeOldestSeconds: number;
  intakeSetAside: number;
  firingsDue: number;
  fanoutsOpen: number;
  fanoutsOpenDelivered: number;
  /** Seconds since the freshest worker heartbeat; null when no worker ever beat. */
  heartbeatAgeSeconds: number | null;
  migrationsApplied: number;
  migrationsHead: number;
  migrationsAtHead: boolean;
  /** The PostgreSQL the statement ran on, as host:port (a multi-host DATABASE_URL names several). */
  node: string;
  /** Whether that node takes writes: a primary, not a standby (in recovery) or a read-only session. */
  writable: boolean;
}

const HEAD = journal.entries[journal.entries.length - 1]!;

/**
 * The whole system's state in one read-only statement, shared by readiness and metrics. Each count is
 * bounded (`cap`) so a huge backlog costs no more than the threshold it is compared with.
 */
export async function readSystemState(
  { db }: AppContext<Db>,
  { cap = 1_000_000 }: { cap?: number } = {},
): Promise<SystemState> {
  const [row] = await queryRows<{
    intake_backlog: number;
    intake_oldest: number;
    intake_set_aside: number;
    firings_due: number;
    fanouts_open: number;
    fanouts_delivered: number;
    heartbeat_age: number | null;
    migrations_applied: number;
    at_head: boolean;
    node: string;
    writable: boolean;
  }>(
    db,
    sql`
    select
      (select count(*) from (select 1 from event_intake where failed_at is null limit ${cap}) b)::int as intake_backlog,
      coalesce(extract(epoch from now() - (select min(received_at) from event_intake where failed_at is null)), 0)::float8 as intake_oldest,
      (select count(*) from (select 1 from event_intake where failed_at is not null limit ${Math.min(cap, 100_000)}) f)::int as intake_set_aside,
      (select count(*) from (select 1 from schedule_firings where state = 'pending' and fire_at <= now() limit ${cap}) d)::int as firings_due,
      (select count(*) from event_fanouts where finished_at is null)::int as fanouts_open,
      (select coalesce(sum(delivered), 0) from event_fanouts where finished_at is null)::int as fanouts_delivered,
      extract(epoch from now() - (select max(seen_at) from worker_heartbeats))::float8 as heartbeat_age,
      (select count(*) from drizzle.__drizzle_migrations)::int as migrations_applied,
      coalesce((select max(created_at) from drizzle.__drizzle_migrations), 0)::bigint >= ${HEAD.when} as at_head,
      coalesce(host(inet_server_addr()) || ':' || inet_server_port(), 'local socket') as node,
      not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`,
  );
  return {
    intakeBacklog: row!.intake_backlog,
    intakeOldestSeconds: row!.intake_oldest,
    intakeSetAside: row!.intake_set_aside,
    firingsDue: row!.firings_due,
    fanoutsOpen: row!.fanouts_open,
    fanoutsOpenDelivered: row!.fanouts_delivered,
    heartbeatAgeSeconds: row!.heartbeat_age,
    migrationsApplied: row!.migrations_applied,
    migrationsHead: journal.entries.length,
    migrationsAtHead: row!.at_head,
    node: row!.node,
    writable: row!.writable,
  };
}
