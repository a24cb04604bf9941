/**
 * Per-key token bucket, in process memory: `rate` tokens a second up to `burst`. Each Next.js process
 * keeps its own buckets; with N instances a key's effective limit is N times the configured one.
 */
interface Bucket {
  tokens: number;
  updated: number;
}

const buckets = new Map<string, Bucket>();

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a token is available (when refused) or until the bucket is full again. */
  resetSeconds: number;
  retryAfterSeconds: number;
}

export function takeToken(key: string, rate: number, burst: number, now = performance.now()): RateDecision {
  const bucket = buckets.get(key) ?? { tokens: burst, updated: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updated) / 1000) * rate);
  bucket.updated = now;
  const allowed = bucket.tokens >= 1;
  if (allowed) bucket.tokens -= 1;
  buckets.set(key, bucket);
  const remaining = Math.floor(bucket.tokens);
  return {
    allowed,
    limit: burst,
    remaining,
    resetSeconds: Math.ceil((burst - bucket.tokens) / rate),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / rate)),
  };
}

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(d.limit),
    "ratelimit-remaining": String(d.remaining),
    "ratelimit-reset": String(d.resetSeconds),
  };
}
