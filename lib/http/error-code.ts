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
