/**
 * Text a remote party wrote (a receiver's reply, an error carrying its words), made storable: PostgreSQL's
 * `text` and `jsonb` refuse U+0000 (22P05) and JSON refuses lone surrogates, so one gzip, UTF-16 or binary
 * reply once made a whole batch of outcomes unwritable. Each NUL and lone surrogate becomes U+FFFD.
 */
export function storableText(s: string): string;
export function storableText(s: string | null): string | null;
export function storableText(s: string | null): string | null {
  if (s === null) return null;
  const whole = s.isWellFormed() ? s : s.toWellFormed();
  return whole.includes("\0") ? whole.replaceAll("\0", "\uFFFD") : whole;
}

/** JSON of `value` with every string in it made storable (storableText), for a `::jsonb` parameter. */
export function storableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? storableText(v) : v));
}
