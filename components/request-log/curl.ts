/** Single-quotes a shell word ('it'\''s'). */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A logged request as a curl command to replay it. The key stays a shell variable (the log never has it)
 * and the body is the logged one, so redacted fields read `[redacted]` and a truncated body is marked.
 */
export function curlOf(origin: string, r: { method: string; path: string; body: string | null }): string {
  const parts = [`curl -X ${r.method} ${shellQuote(origin + r.path)}`, `-H "Authorization: Bearer $RELAY_API_KEY"`];
  if (r.body !== null) parts.push(`-H 'Content-Type: application/json'`, `--data-raw ${shellQuote(r.body)}`);
  return parts.join(" \\\n  ");
}
