import { scrubSecrets } from "@/lib/observability/logger";

/** A failed request's body is kept up to this many bytes (UTF-8), then cut with a marker. */
export const MAX_LOGGED_BODY = 8 * 1024;

/** Keys whose values are replaced wherever they sit in a JSON body. */
const SECRET_KEY =
  /^(password|passwd|secret|token|api_?key|authorization|access_?token|refresh_?token|client_?secret|private_?key)$/i;
const REDACTED = "[redacted]";

function redactValue(v: unknown, depth: number): unknown {
  if (depth > 64 || v === null || typeof v !== "object") return typeof v === "string" ? scrubSecrets(v) : v;
  if (Array.isArray(v)) return v.map((x) => redactValue(x, depth + 1));
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, SECRET_KEY.test(k) ? REDACTED : redactValue(x, depth + 1)]),
  );
}

/**
 * The body as stored in the request log: JSON has secret-named keys' values replaced and API keys and
 * bearer tokens inside strings scrubbed; anything else is scrubbed as text. Then capped at 8 KiB, cut on
 * a character boundary, so the log never holds a credential or a whole 1 MiB upload.
 */
export function redactBody(raw: Uint8Array | null | undefined): string | null {
  if (!raw || !raw.byteLength) return null;
  const text = new TextDecoder("utf-8").decode(
    raw.byteLength > 4 * 1024 * 1024 ? raw.subarray(0, 4 * 1024 * 1024) : raw,
  );
  let out: string;
  try {
    out = JSON.stringify(redactValue(JSON.parse(text), 0));
  } catch {
    out = scrubSecrets(text);
  }
  const bytes = Buffer.from(out, "utf8");
  if (bytes.byteLength <= MAX_LOGGED_BODY) return out;
  // Decoding a cut buffer drops a split trailing character (as U+FFFD, removed here).
  const cut = new TextDecoder("utf-8").decode(bytes.subarray(0, MAX_LOGGED_BODY - 40)).replace(/\uFFFD$/, "");
  return `${cut}…[truncated, ${bytes.byteLength} bytes]`;
}
