import { errorCode, isDatabaseUnavailable } from "@/lib/db/errors";
import { log } from "@/lib/observability/logger";

export interface IsolatingWrite<O> {
  /** Writes a batch of outcomes in one transaction (all or none). */
  write: (batch: O[]) => Promise<void>;
  /** The outcome without the words that came from outside (a reply, a rendered subject), to try once more. */
  bare: (outcome: O, code: string) => O;
  /** What a log line names the outcome by (its id). */
  describe: (outcome: O) => Record<string, unknown>;
  /** What the outcomes are, for log lines ("delivery outcome", "message outcome"). */
  what: string;
}

/**
 * Writes a batch of outcomes; when the database refuses it for its content rather than for being away,
 * halves it until the refused rows stand alone, so one row never holds back the others (of any project).
 * A row refused alone is written once more bare (without the text that came from outside); refused
 * again, it is set aside (logged) and its work falls due again when its lease lapses. Answers the
 * outcomes left unwritten because the database was away: the caller keeps them and tries again.
 */
export async function writeIsolating<O>(batch: O[], how: IsolatingWrite<O>): Promise<O[]> {
  if (!batch.length) return [];
  try {
    await how.write(batch);
    return [];
  } catch (err) {
    if (isDatabaseUnavailable(err)) return batch;
    if (batch.length === 1) return setAside(batch[0]!, err, how);
    const half = Math.ceil(batch.length / 2);
    const left = await writeIsolating(batch.slice(0, half), how);
    if (left.length) return [...left, ...batch.slice(half)];
    return writeIsolating(batch.slice(half), how);
  }
}

async function setAside<O>(outcome: O, err: unknown, how: IsolatingWrite<O>): Promise<O[]> {
  const code = errorCode(err) ?? "unknown";
  try {
    await how.write([how.bare(outcome, code)]);
    log.warn({ err, ...how.describe(outcome) }, `${how.what} refused by the database; stored without its text`);
    return [];
  } catch (again) {
    if (isDatabaseUnavailable(again)) return [outcome];
    log.error({ err: again, ...how.describe(outcome) }, `${how.what} refused by the database; set aside`);
    return [];
  }
}
