import { RateLimiterQueue } from "rate-limiter-flexible";
import { makeLimiter } from "@/lib/http/rate-limit";

const queues = new Map<string, { rate: number; queue: RateLimiterQueue }>();

/**
 * Waits for a send slot under `rate` per second for `key` (a provider, a broadcast), counted in the
 * shared `rate_limits` table so every worker together stays under it. Each slot costs one counter
 * update, so the database work is bounded by the rate itself.
 */
export async function takeSlot(key: string, rate: number): Promise<void> {
  let q = queues.get(key);
  if (!q || q.rate !== rate) {
    q = {
      rate,
      queue: new RateLimiterQueue(makeLimiter(`msg:${key}`, rate, 1, "postgres"), { maxQueueSize: 1_000_000 }),
    };
    queues.set(key, q);
  }
  await q.queue.removeTokens(1);
}
