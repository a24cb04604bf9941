/** The last timestamp text converted, and its ISO form (one entry: see isoTime). */
let lastText: string | undefined;
let lastIso = "";

/**
 * A timestamp as PostgreSQL's text gives it (`2026-11-25 10:42:27.123456+00`) in the ISO form responses
 * carry (`2026-11-25T10:42:27.123Z`). Remembers the last one: the rows one statement creates share
 * their `created_at` and `updated_at` (the transaction's time), so a batch of a thousand new records
 * converts one text, not two thousand (each through a Date, which Next.js wraps in the server).
 */
export function isoTime(text: string): string {
  if (text !== lastText) {
    lastIso = new Date(text).toISOString();
    lastText = text;
  }
  return lastIso;
}
