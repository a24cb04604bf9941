import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { Invalid } from "@/lib/http/errors";
import { queryRows } from "@/lib/db/sql";

export interface CheckedInterval {
  /** As the caller wrote it, trimmed: what the API shows back. */
  text: string;
  /** PostgreSQL's canonical output (`1 week` -> `7 days`): equal intervals compare equal. */
  canonical: string;
}

/**
 * Asks PostgreSQL whether `value` is an interval, so the API accepts exactly what the arithmetic will.
 * Runs outside any transaction (a cast error would abort it). `zero` allows `0 minutes` (offsets);
 * assignment intervals must be strictly positive.
 */
export async function checkInterval(db: DbOrTx, value: string, path: string, opts: { zero?: boolean } = {}): Promise<CheckedInterval> {
  const text = value.trim();
  let row: { canonical: string; sign: number } | undefined;
  try {
    [row] = (await queryRows<{
      canonical: string;
      sign: number;
    }>(db, sql`select ${text}::interval::text as canonical,
      case when ${text}::interval > '0'::interval then 1 when ${text}::interval = '0'::interval then 0 else -1 end as sign`));
  } catch (err) {
    // drizzle wraps the driver's error; the SQLSTATE is on the cause.
    const e = err as { code?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code ?? "";
    // 22xxx: data exceptions (invalid_datetime_format, interval_field_overflow, ...).
    if (!code.startsWith("22")) throw err;
    throw new Invalid(`\`${path}\` is not an interval: ${JSON.stringify(text)}. Write it like \`30 minutes\`, \`7 days\` or \`1 month\`.`, {
      errors: [{ path, message: "not a PostgreSQL interval" }],
    });
  }
  const sign = Number(row!.sign);
  if (sign < 0 || (sign === 0 && !opts.zero)) {
    throw new Invalid(`\`${path}\` must be ${opts.zero ? "zero or positive" : "positive"}; got ${JSON.stringify(text)}.`, {
      errors: [{ path, message: opts.zero ? "must not be negative" : "must be positive" }],
    });
  }
  return { text, canonical: row!.canonical };
}
