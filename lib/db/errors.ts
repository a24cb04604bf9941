/** SQLSTATEs our code reacts to by name. */
export const UNIQUE_VIOLATION = "23505";
export const SERIALIZATION_FAILURE = "40001";
export const DEADLOCK = "40P01";

/**
 * The driver's error code (SQLSTATE like `23505`, or a socket code like `ECONNREFUSED`). drizzle wraps
 * driver errors in its own error with the original as `cause`, so walk the chain.
 */
export function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length) {
      const inner = errorCode(errors[0]);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** SQLSTATE classes and driver codes that mean "the database is not there", not "your input is wrong". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  // read_only_sql_transaction: the node took the connection as a primary and is a standby now (a
  // switchover demotes it); the next connection finds the new primary (target_session_attrs=read-write).
  "25006",
  "53300",
  "53000",
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const code = errorCode(err);
  if (!code) return false;
  return UNAVAILABLE_CODES.has(code) || code.startsWith("08");
}
