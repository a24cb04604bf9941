import { fromWire, toWire } from "./case.js";
import { errorFor, RelayError, RelayNetworkError, RelayRateLimitError } from "./errors.js";

export interface HttpOptions {
  apiKey: string;
  /** The server's origin, e.g. `https://relay.example.com` (paths are `/api/client/...`, project from the key). */
  baseUrl: string;
  /** Retries after the first attempt on network errors, 429 and 503 (default 5). */
  maxRetries?: number;
  /** First backoff step in ms (default 200); doubles per retry, capped at 10 s, with full jitter. */
  retryBaseMs?: number;
  /** Per-attempt timeout in ms (default 15 s). */
  timeoutMs?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

const RETRY_STATUS = new Set([429, 503]);
const MAX_BACKOFF_MS = 10_000;

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Full jitter: a uniform wait in [0, min(cap, base * 2^attempt)). */
export function backoffMs(attempt: number, baseMs: number, random = Math.random): number {
  return random() * Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Http {
  readonly #opts: Required<Omit<HttpOptions, "fetch">> & { fetch: typeof fetch };

  constructor(opts: HttpOptions) {
    if (!opts.apiKey) throw new RelayError("apiKey is required");
    if (!opts.baseUrl) throw new RelayError("baseUrl is required");
    this.#opts = {
      maxRetries: 5,
      retryBaseMs: 200,
      timeoutMs: 15_000,
      ...opts,
      baseUrl: opts.baseUrl.replace(/\/+$/, ""),
      fetch: opts.fetch ?? ((...args) => fetch(...args)),
    };
  }

  /** One API call: camelCase body to snake_case JSON, retried on network errors, 429 and 503; the answer camelCased. */
  async request<T>(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    body: unknown,
    opts: { raw?: boolean; headers?: Record<string, string> } = {},
  ): Promise<T> {
    const { baseUrl, apiKey, maxRetries, retryBaseMs, timeoutMs } = this.#opts;
    const init = {
      method,
      headers: {
        ...(body !== undefined && { "content-type": "application/json" }),
        authorization: `Bearer ${apiKey}`,
        "user-agent": "relay-sdk-js/0.1",
        ...opts.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(opts.raw ? body : toWire(body)),
    };
    // Admin paths are given whole; client paths are under /api/client (the key's project).
    const url = path.startsWith("/api/") ? `${baseUrl}${path}` : `${baseUrl}/api/client${path}`;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.#opts.fetch(url, {
          ...init,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        if (attempt >= maxRetries)
          throw new RelayNetworkError(`Relay did not answer ${method} ${path}: ${(cause as Error)?.message ?? cause}`, {
            cause,
          });
        await sleep(backoffMs(attempt, retryBaseMs));
        continue;
      }
      if (res.ok) {
        const text = await res.text();
        if (!text) return undefined as T;
        return (opts.raw ? JSON.parse(text) : fromWire(JSON.parse(text))) as T;
      }
      const wait = retryAfterMs(res.headers.get("retry-after"));
      if (RETRY_STATUS.has(res.status) && attempt < maxRetries) {
        await res.body?.cancel().catch(() => {});
        // Retry-After is the server's word; jittered backoff when it gives none.
        await sleep(wait ?? backoffMs(attempt, retryBaseMs));
        continue;
      }
      throw await failedAnswer(res, wait);
    }
  }
}

/** The typed error of a failed answer: its problem+json (when it has one), request id and Retry-After in seconds. */
export async function failedAnswer(res: Response, waitMs: number | undefined): Promise<RelayError> {
  let problem: Record<string, unknown> | undefined;
  try {
    problem = (await res.json()) as Record<string, unknown>;
  } catch {}
  const error = errorFor(res.status, problem, res.headers.get("x-request-id") ?? undefined);
  if (error instanceof RelayRateLimitError && waitMs !== undefined) error.retryAfter = waitMs / 1000;
  return error;
}
