import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/http/errors";
import { bodyRead } from "@/lib/http/read-json";
import { scrubSecrets } from "@/lib/observability/logger";
import { redactBody, redactErrors } from "./redact-body";
import { countLimited, logRequest } from "./request-log-buffer";

/** A path with its query string, scrubbed of token-like values and capped, as the log shows it. */
function loggedPath(url: string): string {
  const u = new URL(url);
  return scrubSecrets(u.pathname + u.search).slice(0, 512);
}

/**
 * Queues one API-key request for the key's project's request log. Failed requests (4xx and 5xx) keep
 * their problem's `errors[]` (redacted, capped) and their body (redacted, 4 KiB); successful ones keep
 * neither, so an entry stays a few KiB whatever was sent. A 429 is only counted: a client hammering past
 * its limit would otherwise write one row per refused request.
 */
export function recordKeyRequest(
  req: Request,
  owner: { projectId: string; keyId: string },
  status: number,
  durationMs: number,
  requestId: string | undefined,
  failure: unknown,
): void {
  if (status === 429) {
    countLimited(owner.projectId);
    return;
  }
  const failed = status >= 400;
  logRequest({
    projectId: owner.projectId,
    keyId: owner.keyId,
    at: new Date().toISOString(),
    method: req.method,
    path: loggedPath(req.url),
    status,
    durationMs: Math.max(0, Math.round(durationMs)),
    requestId: requestId ?? randomUUID(),
    errors: failed && failure instanceof AppError ? redactErrors(failure.errors) : null,
    body: failed ? redactBody(bodyRead(req)) : null,
  });
}
