import { randomUUID } from "node:crypto";
import { AppError, Unavailable } from "./errors";

export const PROBLEM_JSON = "application/problem+json";

export function problemResponse(err: AppError, headers: Record<string, string> = {}): Response {
  const body: Record<string, unknown> = {
    type: err.type,
    title: err.title,
    status: err.status,
    detail: err.message,
    ...(err.errors?.length ? { errors: err.errors } : {}),
    ...err.extra,
  };
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: { "content-type": PROBLEM_JSON, ...headers, ...err.headers },
  });
}

/** SQLSTATE classes and driver codes that mean "the database is not there", not "your input is wrong". */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE",
  "CONNECT_TIMEOUT", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED",
  "57P01", "57P02", "57P03", "53300", "53000",
]);

/** Looks through wrappers (drizzle's DrizzleQueryError keeps the driver's error as `cause`). */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  const cause = (err as { cause?: unknown })?.cause;
  return depth < 5 && cause !== undefined && cause !== err && isDatabaseUnavailable(cause, depth + 1);
}

/** The one place an unknown error becomes a response: typed errors keep their status; the rest is 503 or an opaque 500. */
export function errorToResponse(err: unknown, headers: Record<string, string> = {}): Response {
  if (err instanceof AppError) return problemResponse(err, headers);
  if (isDatabaseUnavailable(err)) {
    return problemResponse(new Unavailable("The database is unavailable. Retry shortly.", { headers: { "retry-after": "5" } }), headers);
  }
  const requestId = randomUUID();
  console.error(`[request ${requestId}] unhandled error`, err);
  const body = {
    type: "https://relay.dev/problems/internal-error",
    title: "Internal error",
    status: 500,
    detail: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
    request_id: requestId,
  };
  return new Response(JSON.stringify(body), { status: 500, headers: { "content-type": PROBLEM_JSON, ...headers } });
}
