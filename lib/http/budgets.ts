import { callerBucket } from "./client-address";
import { RateLimited } from "./errors";
import { errorToResponse } from "./problem";
import { drainUnread } from "./read-json";
import { limitOrThrow, perSecond, perWindow, type RateSpec } from "./rate-limit";

/**
 * The named budgets and their defaults; each can be changed by an environment variable.
 * `RATE:BURST` for per-second budgets (e.g. `10:100`), `POINTS/SECONDS` for windows (e.g. `5/3600`).
 */
function fromEnv(name: string, fallback: RateSpec): RateSpec {
  const v = process.env[name]?.trim();
  if (!v) return fallback;
  const bucket = /^(\d+):(\d+)$/.exec(v);
  if (bucket) return perSecond(Number(bucket[1]), Number(bucket[2]));
  const window = /^(\d+)\/(\d+)$/.exec(v);
  if (window) return perWindow(Number(window[1]), Number(window[2]));
  throw new Error(
    `${name} must look like RATE:BURST (e.g. 10:100) or POINTS/SECONDS (e.g. 5/3600), not ${JSON.stringify(v)}`,
  );
}

export const BUDGETS = {
  /** Per caller address on every door without a credential: public links, webhooks, and every 401. */
  anonymous: () => fromEnv("RATE_LIMIT_IP", perSecond(10, 100)),
  /** Per signed-in console admin, over every console API call. */
  session: () => fromEnv("RATE_LIMIT_SESSION", perSecond(20, 200)),
  /** Sign-in mail per caller address, and per recipient address: an inbox cannot be flooded. */
  signInPerAddress: () => fromEnv("RATE_LIMIT_SIGNIN_IP", perWindow(20, 3600)),
  signInPerRecipient: () => fromEnv("RATE_LIMIT_SIGNIN_EMAIL", perWindow(5, 3600)),
  /** A template's test send (real mail or SMS to any address) per project, and per recipient address. */
  testSendsPerProject: () => fromEnv("RATE_LIMIT_TEST_SENDS", perWindow(60, 3600)),
  testSendsPerRecipient: () => fromEnv("RATE_LIMIT_TEST_SENDS_TO", perWindow(10, 3600)),
  /**
   * Renders in the web process (a template's preview, a message's view) per project: each may take the
   * whole render limit (200 ms) of a core, so one key cannot keep the web busy rendering.
   */
  rendersPerProject: () => fromEnv("RATE_LIMIT_RENDERS", perSecond(2, 20)),
};

/** One request from the caller's address on an unauthenticated door; returns the headers to send. */
export function limitAnonymous(req: Request, door: string): Promise<Record<string, string>> {
  return limitOrThrow(`ip:${door}`, callerBucket(req), BUDGETS.anonymous(), "from this address");
}

export function limitSession(adminId: string): Promise<Record<string, string>> {
  return limitOrThrow("session", adminId, BUDGETS.session(), "for this console session");
}

/**
 * One request on an API key's budget. A browser key (one with allowed origins) is public by nature, in
 * every visitor's page: its budget is counted per caller address (`caller`), so one abuser spends only
 * their own share and never starves the key's other visitors.
 */
export function limitKey(
  key: {
    id: string;
    rateLimitPerSecond: number;
    rateLimitBurst: number;
  },
  caller?: Request,
): Promise<Record<string, string>> {
  return limitOrThrow(
    "key",
    caller ? `${key.id}|${callerBucket(caller)}` : key.id,
    perSecond(key.rateLimitPerSecond, key.rateLimitBurst),
    `for this key (${key.rateLimitPerSecond}/s, burst ${key.rateLimitBurst})`,
  );
}

/**
 * Maps an error to its response with rate-limit headers. A request that failed before any credential was
 * counted (401, unknown project, bad key) is counted against the caller address's budget here, so every
 * answer carries `RateLimit-*` and guessing credentials is limited like any anonymous call. A large body
 * nobody read is drained first (lib/http/read-json.ts `drainUnread`), so the answer is not lost to a reset.
 */
export async function answerError(req: Request, err: unknown, headers: Record<string, string>): Promise<Response> {
  await drainUnread(req);
  if (!Object.keys(headers).length && !(err instanceof RateLimited)) {
    try {
      headers = await limitAnonymous(req, "api");
    } catch (limited) {
      return errorToResponse(limited);
    }
  }
  return errorToResponse(err, headers);
}
