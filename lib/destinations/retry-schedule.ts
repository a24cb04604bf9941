import { parseDuration, parseDurations } from "./durations";

/** Standard Webhooks' recommended schedule, after the first attempt. */
export const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,10h";

/**
 * Each attempt gives up after this long (connect, answer and the answer's first bytes):
 * DESTINATION_ATTEMPT_TIMEOUT, default 10s.
 */
export const ATTEMPT_TIMEOUT_MS = (() => {
  const ms = parseDuration(process.env.DESTINATION_ATTEMPT_TIMEOUT ?? "10s");
  if (ms === null || ms <= 0) throw new Error("DESTINATION_ATTEMPT_TIMEOUT: not a duration like 10s");
  return ms;
})();

/** The delays between attempts (DESTINATION_RETRY_SCHEDULE); its length is how many retries a message gets. */
export function retrySchedule(env = process.env): number[] {
  return parseDurations(env.DESTINATION_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE, "DESTINATION_RETRY_SCHEDULE");
}

/** How long a destination may fail every attempt before it is turned off (DESTINATION_DISABLE_AFTER, default 3d). */
export function disableAfterMs(env = process.env): number {
  const ms = parseDuration(env.DESTINATION_DISABLE_AFTER ?? "3d");
  if (ms === null) throw new Error("DESTINATION_DISABLE_AFTER: not a duration like 3d or 12h");
  return ms;
}

/**
 * When the next attempt is due after `tries` failed ones, or null when the schedule is spent. The delay
 * varies by up to a fifth either way so the messages of a destination that came back do not all retry
 * in the same second.
 */
export function nextAttemptDelay(tries: number, schedule: number[], random = Math.random): number | null {
  const base = schedule[tries - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}
