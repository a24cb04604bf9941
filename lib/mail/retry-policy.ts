/**
 * How long a mail job keeps trying: exponential backoff from 30 s, capped at one hour between tries, 40
 * retries. pg-boss's jitter makes each delay between half and all of `delay·2^n`, so even the shortest
 * draw keeps trying for about 33 hours (at least the 24 h promised); the longest about 38 hours.
 * MAIL_RETRY_DELAY_SECONDS / MAIL_RETRY_DELAY_MAX_SECONDS shrink the delays (tests use 1 s / 2 s).
 */
export function mailRetryPolicy() {
  return {
    retryLimit: 40,
    retryDelay: positive(process.env.MAIL_RETRY_DELAY_SECONDS, 30),
    retryBackoff: true,
    retryDelayMax: positive(process.env.MAIL_RETRY_DELAY_MAX_SECONDS, 3600),
    // One SMTP conversation, not a batch: a stuck server is given up on and retried.
    expireInSeconds: 120,
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
