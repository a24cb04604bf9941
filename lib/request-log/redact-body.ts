import { maskUrl } from "@/lib/destinations/mask-url";
import { scrubSecrets } from "@/lib/observability/logger";

import type { FieldError } from "@/lib/http/errors";

/** A failed request's body is kept up to this many bytes (UTF-8), then cut with a marker. */
export const MAX_LOGGED_BODY = 4 * 1024;
/** A logged entry's `errors`: at most this many, each path and message cut, all of them within MAX_LOGGED_ERRORS_BYTES. */
export const MAX_LOGGED_ERRORS = 20;
export const MAX_LOGGED_ERRORS_BYTES = 2 * 1024;
const MAX_ERROR_PATH = 120;
const MAX_ERROR_MESSAGE = 240;

/**
 * Names whose values are secrets wherever they sit in a body or an error's path: anything containing
 * token, secret, password (passwd), key, authorization or credential, and every Twilio setting.
 */
const SECRET_NAME = /token|secret|passw(or)?d|key|authori[sz]ation|credential|^twilio/i;
export const isSecretName = (name: string) => SECRET_NAME.test(name);
const REDACTED = "[redacted]";
/**
 * A `url` member's value: webhook URLs (Slack, Discord) carry their secret in the path or query, so the log
 * keeps only what mask-url.ts shows of a destination.
 */
const URL_NAME = /^(.*_)?url$/i;
/**
 * `"<secret name>": "<value>"` in text that is not valid JSON (a malformed body still names its fields);
 * a `url` there is redacted whole.
 */
const SECRET_MEMBER =
  /("(?:[^"\\]|\\.){0,200}?(?:token|secret|passw(?:or)?d|key|authori[sz]ation|credential|twilio|url)(?:[^"\\]|\\.){0,200}?"\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\]\s]+)/gi;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A problem's `errors[]` as the request log keeps it: a field whose path names a secret has its message
 * replaced (a message may quote the value), strings are scrubbed and cut, and the list is cut to a few
 * entries and about 2 KiB, however many fields and however long the names a body made up.
 */
export function redactErrors(errors: readonly FieldError[] | undefined | null): FieldError[] | null {
  if (!errors?.length) return null;
  const out: FieldError[] = [];
  let size = 0;
  for (const e of errors.slice(0, MAX_LOGGED_ERRORS)) {
    const path = cut(scrubSecrets(String(e.path ?? "")), MAX_ERROR_PATH);
    const secret = String(e.path ?? "")
      .split(/[.[\]]/)
      .some((part) => part && isSecretName(part));
    const message = secret ? REDACTED : cut(scrubSecrets(String(e.message ?? "")), MAX_ERROR_MESSAGE);
    size += path.length + message.length + 24;
    if (size > MAX_LOGGED_ERRORS_BYTES) break;
    out.push({ path, message });
  }
  if (errors.length > out.length) out.push({ path: "", message: `… ${errors.length - out.length} more not logged` });
  return out;
}

function redactValue(v: unknown, depth: number): unknown {
  if (depth > 64 || v === null || typeof v !== "object") return typeof v === "string" ? scrubSecrets(v) : v;
  if (Array.isArray(v)) return v.map((x) => redactValue(x, depth + 1));
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      cut(k, MAX_ERROR_PATH),
      isSecretName(k) ? REDACTED : URL_NAME.test(k) && typeof x === "string" ? maskUrl(x) : redactValue(x, depth + 1),
    ]),
  );
}

/**
 * The body as stored in the request log: JSON has secret-named keys' values replaced and API keys and
 * bearer tokens inside strings scrubbed; anything else is scrubbed as text. Then capped at 4 KiB, cut on
 * a character boundary, so the log never holds a credential or a whole 1 MiB upload.
 */
export function redactBody(raw: Uint8Array | null | undefined): string | null {
  if (!raw?.byteLength) return null;
  const text = new TextDecoder("utf-8").decode(
    raw.byteLength > 4 * 1024 * 1024 ? raw.subarray(0, 4 * 1024 * 1024) : raw,
  );
  let out: string;
  try {
    out = JSON.stringify(redactValue(JSON.parse(text), 0));
  } catch {
    // Only the part that can be kept is searched: the patterns stay cheap on a megabyte of hostile text.
    out = scrubSecrets(text.slice(0, 4 * MAX_LOGGED_BODY).replace(SECRET_MEMBER, `$1"${REDACTED}"`));
  }
  const bytes = Buffer.from(out, "utf8");
  if (bytes.byteLength <= MAX_LOGGED_BODY && text.length <= 4 * MAX_LOGGED_BODY) return out;
  // Decoding a cut buffer drops a split trailing character (as U+FFFD, removed here).
  const cut = new TextDecoder("utf-8").decode(bytes.subarray(0, MAX_LOGGED_BODY - 40)).replace(/\uFFFD$/, "");
  return `${cut}…[truncated, ${raw.byteLength} bytes]`;
}
