import { sql } from "drizzle-orm";
import { Invalid } from "@/lib/http/errors";
import { queryRows } from "@/lib/db/sql";
import type { AppContext } from "@/lib/access/context";

export interface CheckedInterval {
  /** As the caller wrote it, trimmed: what the API shows back. */
  text: string;
  /** PostgreSQL's canonical output (`1 week` -> `7 days`): equal intervals compare equal. */
  canonical: string;
  /** With `floor`: shorter than it, or with a negative part (which may step backwards from some dates). */
  belowFloor: boolean;
}

/** The longest interval or offset: longer ones only push timestamps out of PostgreSQL's range (a 500). */
const MAX_INTERVAL = "100 years";

/** The shortest recurring interval (docs/decisions/0024); `SCHEDULE_MIN_INTERVAL` lowers it for tests. */
export function minAssignmentInterval(): string {
  return process.env.SCHEDULE_MIN_INTERVAL?.trim() || "1 minute";
}

/**
 * Asks PostgreSQL whether `value` is an interval, so the API accepts exactly what the arithmetic will.
 * Runs outside any transaction (a cast error would abort it). `zero` allows `0 minutes` (offsets);
 * assignment intervals must be strictly positive. `min` (assignments) also refuses anything shorter, and
 * any negative part: `1 month -30 days 1 minute` compares as one minute but steps backwards from some
 * dates, which would break the cycle arithmetic. `floor` refuses nothing: it says whether the value is
 * below it (`belowFloor`), for a journey's pauses, which may be short but not inside a cycle.
 */
export async function checkInterval(
  ctx: AppContext,
  { value, path, ...opts }: { value: string; path: string; zero?: boolean; min?: string; floor?: string },
): Promise<CheckedInterval> {
  const text = value.trim();
  let row: { canonical: string; sign: number; short: boolean; mixed: boolean; long: boolean; low: boolean } | undefined;
  try {
    [row] = await queryRows<{
      canonical: string;
      sign: number;
      short: boolean;
      mixed: boolean;
      long: boolean;
      low: boolean;
    }>(
      ctx.db,
      sql`select ${text}::interval::text as canonical,
      case when ${text}::interval > '0'::interval then 1 when ${text}::interval = '0'::interval then 0 else -1 end as sign,
      ${opts.min ?? null}::interval is not null and ${text}::interval < ${opts.min ?? null}::interval as short,
      position('-' in ${text}::interval::text) > 0 as mixed,
      ${text}::interval > ${MAX_INTERVAL}::interval as long,
      ${opts.floor ?? null}::interval is not null and ${text}::interval < ${opts.floor ?? null}::interval as low`,
    );
  } catch (err) {
    // drizzle wraps the driver's error; the SQLSTATE is on the cause.
    const e = err as { code?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code ?? "";
    // 22xxx: data exceptions (invalid_datetime_format, interval_field_overflow, ...).
    if (!code.startsWith("22")) throw err;
    throw new Invalid(
      `\`${path}\` is not an interval: ${JSON.stringify(text)}. Write it like \`30 minutes\`, \`7 days\` or \`1 month\`.`,
      {
        errors: [{ path, message: "not a PostgreSQL interval" }],
      },
    );
  }
  const sign = Number(row!.sign);
  if (sign < 0 || (sign === 0 && !opts.zero)) {
    throw new Invalid(
      `\`${path}\` must be ${opts.zero ? "zero or positive" : "positive"}; got ${JSON.stringify(text)}.`,
      {
        errors: [{ path, message: opts.zero ? "must not be negative" : "must be positive" }],
      },
    );
  }
  if (row!.long) {
    const message = `must be at most ${MAX_INTERVAL}`;
    throw new Invalid(`\`${path}\` ${message}; got ${JSON.stringify(text)}.`, { errors: [{ path, message }] });
  }
  if (opts.min !== undefined && (row!.short || row!.mixed)) {
    const message = row!.mixed ? "every part must be positive" : `must be at least ${opts.min}`;
    throw new Invalid(`\`${path}\` ${message}; got ${JSON.stringify(text)}.`, { errors: [{ path, message }] });
  }
  return { text, canonical: row!.canonical, belowFloor: opts.floor !== undefined && (row!.low || row!.mixed) };
}
