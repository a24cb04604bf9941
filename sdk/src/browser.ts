import { Batcher } from "./batcher.js";
import { RelayError, RelayNetworkError } from "./errors.js";
import { backoffMs, failedAnswer, retryAfterMs } from "./http.js";

/**
 * The browser entry (`@relay/sdk/browser`): anonymous visitors, `identify` and `track` from a web page.
 * Use it only with a browser key: role `client` with `allowed_origins` listing your site. That key is
 * public (anyone can read it from the page) and the server limits it to `POST /api/client/users` and
 * `POST /api/client/users/events`, answered without stored data; see the SDK README.
 */
export interface RelayBrowserOptions {
  /** A browser key (`client` role with `allowed_origins`). */
  apiKey: string;
  /** The Relay server's origin, e.g. `https://relay.example.com`. */
  baseUrl: string;
  /** Events per request (default 20; at most 1,000). */
  flushAt?: number;
  /** How long an event waits for companions, in ms (default 1,000). */
  flushIntervalMs?: number;
  /** Retries on network errors, 429 and 503 (default 3). */
  maxRetries?: number;
  /** Where the ids are kept (default `localStorage`; an in-memory store when that is unavailable). */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  /** Called with each failed send (also rejected to whoever awaited the call). */
  onError?: (error: unknown) => void;
  fetch?: typeof fetch;
}

export interface Traits {
  email?: string | null;
  phone?: string | null;
  timezone?: string | null;
  locale?: string | null;
  data?: Record<string, unknown>;
}

type Identifier = { source: string; external_id: string };
type WireEvent = {
  id: string;
  name: string;
  identifier: Identifier[];
  data: Record<string, unknown>;
  timestamp: string;
};

export const ANONYMOUS_ID_KEY = "relay:anonymous_id";
export const USER_ID_KEY = "relay:user_id";
/** keepalive requests may carry at most 64 KiB in all; a larger batch is sent without it. */
const KEEPALIVE_LIMIT = 60_000;

function memoryStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

function defaultStorage() {
  try {
    const s = globalThis.localStorage;
    s.getItem(ANONYMOUS_ID_KEY); // throws where storage is blocked (some private modes, sandboxed frames)
    return s;
  } catch {
    return memoryStorage();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RelayBrowser {
  readonly #opts: Required<Omit<RelayBrowserOptions, "onError" | "storage" | "fetch">> & {
    onError?: (e: unknown) => void;
  };
  readonly #storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  readonly #fetch: typeof fetch;
  readonly #events: Batcher<WireEvent>;
  #leaving = false;

  constructor(opts: RelayBrowserOptions) {
    if (!opts.apiKey) throw new RelayError("apiKey is required");
    if (!opts.baseUrl) throw new RelayError("baseUrl is required");
    this.#opts = {
      flushAt: 20,
      flushIntervalMs: 1_000,
      maxRetries: 3,
      ...opts,
      baseUrl: opts.baseUrl.replace(/\/+$/, ""),
    };
    this.#storage = opts.storage ?? defaultStorage();
    this.#fetch = opts.fetch ?? ((...args) => fetch(...args));
    this.#events = new Batcher(
      (events) => this.#send("/users/events", events),
      Math.min(Math.max(1, this.#opts.flushAt), 1000),
      this.#opts.flushIntervalMs,
    );
    // Leaving the page: send what is queued with keepalive, so the browser finishes the request after unload.
    if (typeof addEventListener === "function") {
      const leave = () => {
        this.#leaving = true;
        void this.flush().finally(() => (this.#leaving = false));
      };
      addEventListener("pagehide", leave);
      if (typeof document !== "undefined")
        document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && leave());
    }
  }

  /** This browser's anonymous id: a random UUID made on first use and kept in storage. */
  get anonymousId(): string {
    let id = this.#storage.getItem(ANONYMOUS_ID_KEY);
    if (!id) {
      id = globalThis.crypto.randomUUID();
      this.#storage.setItem(ANONYMOUS_ID_KEY, id);
    }
    return id;
  }

  /** The id given to `identify`, until `reset()`. */
  get userId(): string | null {
    return this.#storage.getItem(USER_ID_KEY);
  }

  /**
   * Names the visitor: upserts the user with both identifiers, `(anonymous, anonymousId)` and
   * `(default, userId)`, so what was tracked anonymously joins the user. When both already belong to
   * different users (the visitor was known before on another browser), the server answers 409; the
   * anonymous history then stays on its own record and the upsert is repeated with `userId` alone.
   */
  async identify(userId: string, traits: Traits = {}): Promise<void> {
    if (!userId) throw new RelayError("identify needs a userId");
    this.#storage.setItem(USER_ID_KEY, userId);
    const body = {
      ...traits,
      identifier: [
        { source: "anonymous", external_id: this.anonymousId },
        { source: "default", external_id: userId },
      ],
    };
    try {
      await this.#send("/users", body);
    } catch (e) {
      if ((e as RelayError).status !== 409) throw this.#report(e);
      await this.#send("/users", { ...body, identifier: [{ source: "default", external_id: userId }] }).catch((e2) => {
        throw this.#report(e2);
      });
    }
  }

  /**
   * Records an event for the current visitor: `(default, userId)` once identified, else the anonymous id.
   * Batched; each event has a client id, so a retried batch is not counted twice.
   */
  track(name: string, data: Record<string, unknown> = {}): Promise<void> {
    const userId = this.userId;
    const identifier = userId
      ? [{ source: "default", external_id: userId }]
      : [{ source: "anonymous", external_id: this.anonymousId }];
    return this.#events.add({
      id: globalThis.crypto.randomUUID(),
      name,
      identifier,
      data,
      timestamp: new Date().toISOString(),
    });
  }

  /** Sends every queued event now. */
  flush(): Promise<void> {
    return this.#events.flush();
  }

  /** Forgets the user and starts a new anonymous id (call it on sign-out). Queued events are sent first as they were. */
  reset(): void {
    void this.flush();
    this.#storage.removeItem(USER_ID_KEY);
    this.#storage.removeItem(ANONYMOUS_ID_KEY);
  }

  #report(e: unknown): unknown {
    this.#opts.onError?.(e);
    return e;
  }

  async #send(path: string, body: unknown): Promise<void> {
    const text = JSON.stringify(body);
    const init: RequestInit = {
      method: "POST",
      // Only these two headers: the preflight allows exactly Authorization and Content-Type.
      headers: { "content-type": "application/json", authorization: `Bearer ${this.#opts.apiKey}` },
      body: text,
      keepalive: text.length < KEEPALIVE_LIMIT,
      credentials: "omit",
    };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.#fetch(`${this.#opts.baseUrl}/api/client${path}`, init);
      } catch (cause) {
        // A page being left gets one attempt: there is no later.
        if (this.#leaving || attempt >= this.#opts.maxRetries) {
          throw this.#sendFailed(
            new RelayNetworkError(`Relay did not answer POST ${path}: ${(cause as Error)?.message ?? cause}`, {
              cause,
            }),
            path,
          );
        }
        await sleep(backoffMs(attempt, 200));
        continue;
      }
      if (res.ok) return void (await res.body?.cancel().catch(() => {}));
      const wait = retryAfterMs(res.headers.get("retry-after"));
      if ((res.status === 429 || res.status === 503) && !this.#leaving && attempt < this.#opts.maxRetries) {
        await res.body?.cancel().catch(() => {});
        await sleep(wait ?? backoffMs(attempt, 200));
        continue;
      }
      throw this.#sendFailed(await failedAnswer(res, wait), path);
    }
  }

  /** Event sends are fire-and-forget for most callers: report them (identify reports its own, after its 409 retry). */
  #sendFailed(e: unknown, path: string): unknown {
    return path === "/users" ? e : this.#report(e);
  }
}
