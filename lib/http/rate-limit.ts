import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getDb } from "@/db/client";
import { rateLimits } from "@/db/schema";
import { RateLimited } from "./errors";

/**
 * Rate limits, counted by rate-limiter-flexible. One process: counters in memory. Several web instances:
 * RATE_LIMIT_STORE=postgres keeps them in the `rate_limits` table so all instances share one budget.
 *
 * A budget is a sustained window (`points` per `seconds`) plus an optional burst layer used once the
 * sustained window is spent (the library's BurstyRateLimiter pattern, composed here so the headers can
 * report the burst allowance too). `perSecond(rate, burst)` gives token-bucket-like behaviour: `burst`
 * requests at once, then `rate` a second, the burst refilling over (burst - rate) / rate seconds.
 */
export interface RateSpec {
  points: number;
  seconds: number;
  burst?: { points: number; seconds: number };
}

export function perSecond(rate: number, burst: number): RateSpec {
  const r = Math.max(1, Math.floor(rate));
  const extra = Math.floor(burst) - r;
  return {
    points: r,
    seconds: 1,
    ...(extra > 0 ? { burst: { points: extra, seconds: Math.max(1, Math.ceil(extra / r)) } } : {}),
  };
}

export function perWindow(points: number, seconds: number): RateSpec {
  return { points: Math.max(1, Math.floor(points)), seconds: Math.max(1, Math.floor(seconds)) };
}

export function specLimit(spec: RateSpec): number {
  return spec.points + (spec.burst?.points ?? 0);
}

export type RateStore = "memory" | "postgres";

export function rateLimitStore(): RateStore {
  const v = (process.env.RATE_LIMIT_STORE ?? "memory").toLowerCase();
  if (v !== "memory" && v !== "postgres")
    throw new Error(`RATE_LIMIT_STORE must be "memory" or "postgres", not ${JSON.stringify(v)}`);
  return v;
}

/** Builds the library limiter for one window. `storeClient` lets tests give two instances their own pools. */
export function makeLimiter(
  prefix: string,
  points: number,
  seconds: number,
  store: RateStore,
  storeClient?: unknown,
): RateLimiterAbstract {
  const opts = { keyPrefix: prefix, points, duration: seconds };
  if (store === "memory") return new RateLimiterMemory(opts);
  // If the database hiccups, count in memory for the moment rather than fail the request on the limiter.
  return new RateLimiterDrizzle({
    ...opts,
    storeClient: storeClient ?? getDb(),
    schema: rateLimits,
    insuranceLimiter: new RateLimiterMemory(opts),
  });
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the allowance now in use (the sustained window, then the burst). */
  remaining: number;
  /** Seconds until the allowance in use starts over. */
  resetSeconds: number;
  retryAfterSeconds: number;
}

export class Budget {
  private readonly sustained: RateLimiterAbstract;
  private readonly burst: RateLimiterAbstract | null;
  constructor(
    readonly name: string,
    readonly spec: RateSpec,
    store: RateStore = rateLimitStore(),
    storeClient?: unknown,
  ) {
    const prefix = `${name}:${spec.points}/${spec.seconds}`;
    this.sustained = makeLimiter(prefix, spec.points, spec.seconds, store, storeClient);
    this.burst = spec.burst
      ? makeLimiter(
          `${prefix}:burst${spec.burst.points}/${spec.burst.seconds}`,
          spec.burst.points,
          spec.burst.seconds,
          store,
          storeClient,
        )
      : null;
  }

  async take(subject: string): Promise<RateDecision> {
    const limit = specLimit(this.spec);
    const ok = (r: RateLimiterRes): RateDecision => ({
      allowed: true,
      limit,
      remaining: r.remainingPoints,
      resetSeconds: Math.ceil(r.msBeforeNext / 1000),
      retryAfterSeconds: 0,
    });
    const refused = (ms: number): RateDecision => {
      const s = Math.max(1, Math.ceil(ms / 1000));
      return { allowed: false, limit, remaining: 0, resetSeconds: s, retryAfterSeconds: s };
    };
    try {
      return ok(await this.sustained.consume(subject));
    } catch (rej) {
      if (!(rej instanceof RateLimiterRes)) throw rej;
      if (!this.burst) return refused(rej.msBeforeNext);
      try {
        return ok(await this.burst.consume(subject));
      } catch (burstRej) {
        if (!(burstRej instanceof RateLimiterRes)) throw burstRej;
        return refused(Math.min(rej.msBeforeNext, burstRej.msBeforeNext));
      }
    }
  }
}

const budgets = new Map<string, Budget>();

/** The process-wide budget for a name and spec (limiters are made once and reused). */
export function budget(name: string, spec: RateSpec): Budget {
  const id = `${name}|${JSON.stringify(spec)}`;
  let b = budgets.get(id);
  if (!b) budgets.set(id, (b = new Budget(name, spec)));
  return b;
}

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(d.limit),
    "ratelimit-remaining": String(d.remaining),
    "ratelimit-reset": String(d.resetSeconds),
  };
}

/**
 * Takes one request from `subject`'s budget and returns the headers to send; past the budget throws
 * RateLimited (429) carrying the same headers and `Retry-After`.
 */
export async function limitOrThrow(
  name: string,
  subject: string,
  spec: RateSpec,
  what: string,
): Promise<Record<string, string>> {
  const d = await budget(name, spec).take(subject);
  const headers = rateLimitHeaders(d);
  if (!d.allowed) {
    throw new RateLimited(`Too many requests ${what}. Retry in ${d.retryAfterSeconds} s.`, {
      headers: { ...headers, "retry-after": String(d.retryAfterSeconds) },
      extra: { retry_after: d.retryAfterSeconds },
    });
  }
  return headers;
}

/** Copies headers onto a response; redirects made by Response.redirect() have immutable headers, so rebuild those. */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}
