import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/http/errors";
import { bodyRead } from "@/lib/http/read-json";
import { scrubSecrets } from "@/lib/observability/logger";
import { redactBody } from "./redact-body";
import { logRequest } from "./request-log-buffer";

/** A path with its query string, scrubbed of token-like values and capped, as the log shows it. */
function loggedPath(url: string): string {
  const u = new URL(url);
  return scrubSecrets(u.pathname + u.search).slice(0, 2048);
}

/**
 * Queues one API-key request for the key's project's request log. Failed requests (4xx and 5xx) keep
 * their problem's `errors[]` and their body (redacted, 8 KiB); successful ones keep neither.
 */
export function recordKeyRequest(
  req: Request,
  owner: { projectId: string; keyId: string },
  status: number,
  durationMs: number,
  requestId: string | undefined,
  failure: unknown,
): void {
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
    errors: failed && failure instanceof AppError && failure.errors?.length ? failure.errors.slice(0, 100) : null,
    body: failed ? redactBody(bodyRead(req)) : null,
  });
}
