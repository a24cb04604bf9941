import { randomUUID } from "node:crypto";
import { AppError, Invalid, Unavailable } from "./errors";
import { errorCode, isDatabaseUnavailable } from "@/lib/db/errors";
import { logContext } from "@/lib/observability/log-context";
import { log } from "@/lib/observability/logger";

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

/** The one place an unknown error becomes a response: typed errors keep their status; the rest is 503 or an opaque 500. */
export function errorToResponse(err: unknown, headers: Record<string, string> = {}): Response {
  if (err instanceof AppError) return problemResponse(err, headers);
  if (isDatabaseUnavailable(err)) {
    return problemResponse(
      new Unavailable("The database is unavailable. Retry shortly.", { headers: { "retry-after": "5" } }),
      headers,
    );
  }
  // Class 22 is "data exception": a value PostgreSQL refused. Validation should have caught it; answering
  // 400 keeps a gap in validation from becoming a 500, and the log line shows what to tighten.
  if (errorCode(err)?.startsWith("22")) {
    log.warn({ err }, "database refused a value that passed validation");
    return problemResponse(new Invalid("A value in the request cannot be stored."), headers);
  }
  const requestId = logContext.getStore()?.reqId ?? randomUUID();
  log.error({ err }, "unhandled error");
  const body = {
    type: "https://relay.dev/problems/internal-error",
    title: "Internal error",
    status: 500,
    detail: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
    request_id: requestId,
  };
  return new Response(JSON.stringify(body), { status: 500, headers: { "content-type": PROBLEM_JSON, ...headers } });
}
