import type postgres from "postgres";

/** pg-boss's database interface (its `IDatabase`, of which pg-boss asks only `executeSql` here). */
export interface QueueDatabase {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

const STARTS_TRANSACTION = /^\s*BEGIN\b/i;

/**
 * pg-boss on a postgres.js pool (db/client.ts `getQueueSql`) instead of the node-postgres pool it would
 * open: node-postgres cannot parse a multi-host DATABASE_URL
 * (`postgres://h1:p1,h2:p2/db?target_session_attrs=read-write`), and one driver means one connect and
 * reconnect policy for every connection of the process (docs/decisions/0027-failover.md).
 *
 * - Without parameters a statement goes through the simple protocol, which is what runs pg-boss's
 *   multi-statement scripts (schema install, maintenance); their rows are flattened, so a RETURNING
 *   before the trailing COMMIT is not lost.
 * - A script that opens its own transaction (`BEGIN; ... COMMIT;`) runs on a reserved connection:
 *   postgres.js refuses BEGIN on a shared pool connection, whose next statement could be anyone's.
 * - No `listen`: pg-boss then polls (Relay's workers poll every 0.5 s and use no NOTIFY from pg-boss), so
 *   a listener lost in a failover cannot lose a wake-up.
 */
export function poolAdapter(sql: postgres.Sql): QueueDatabase {
  return {
    async executeSql(text, values) {
      const params = (values ?? []).map((v) => (v === undefined ? null : v)) as postgres.ParameterOrJSON<never>[];
      const run = (target: postgres.Sql | postgres.ReservedSql) =>
        params.length ? target.unsafe(text, params) : target.unsafe(text);
      if (!STARTS_TRANSACTION.test(text)) return { rows: flatten(await run(sql)) };
      const reserved = await sql.reserve();
      try {
        return { rows: flatten(await run(reserved)) };
      } catch (err) {
        // A failed script leaves its transaction open and aborted: close it before the connection goes back.
        await reserved.unsafe("rollback").catch(() => {});
        throw err;
      } finally {
        reserved.release();
      }
    },
  };
}

/** One statement's rows as they are; a multi-statement script's results (one array each) as one list. */
function flatten(result: unknown): unknown[] {
  if (!Array.isArray(result)) return [];
  return result.length > 0 && result.every((r) => Array.isArray(r)) ? result.flat() : [...result];
}
