import { randomUUID } from "node:crypto";
import { AppError, Conflict, Invalid, Unavailable } from "./errors";
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

const FOREIGN_KEY_VIOLATION = "23503";

/** What a foreign-key error's referenced table holds, in words ("message_templates" -> "message template"). */
function referencedThing(err: unknown): string {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const table = /is not present in table "([a-z_]+)"/.exec(String((e as { detail?: unknown }).detail ?? ""))?.[1];
    if (table) return table.replace(/_/g, " ").replace(/ies$/, "y").replace(/s$/, "");
  }
  return "record";
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
  // A row this request refers to was deleted between its checks and its insert (a template, list or
  // provider deleted while a broadcast or message is created): the caller's conflict, not our fault.
  if (errorCode(err) === FOREIGN_KEY_VIOLATION)
    return problemResponse(
      new Conflict(
        `A ${referencedThing(err)} this request names was deleted while it was being written: nothing was saved.`,
      ),
      headers,
    );
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
