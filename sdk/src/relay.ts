import { Batcher } from "./batcher.js";
import { Http, type HttpOptions } from "./http.js";
import type * as T from "./types.js";

export interface RelayOptions extends HttpOptions {
  /** Events per request (default 100, at most 1,000). */
  flushAt?: number;
  /** How long an event waits for companions before its batch is sent, in ms (default 1,000). */
  flushIntervalMs?: number;
  /** Called with each failed event batch (also rejected to whoever awaited `track`). */
  onError?: (error: unknown) => void;
}

type Kind = "users" | "organizations";

/** A client-generated id makes a retried batch harmless: the server ignores a repeat id for 7 days. */
const eventId = () => globalThis.crypto.randomUUID();

function scheduleVerbs(http: Http, kind: Kind) {
  const base = `/${kind}/scheduled`;
  return {
    /** Creates or replaces the assignment of schedule `name` (created if new) to the record. */
    assign: (input: T.ScheduleAssignmentInput) => http.request<T.ScheduleAssignment>("POST", base, input),
    remove: (input: T.ScheduleUnassignInput) => http.request<void>("DELETE", base, input),
    pause: (input: T.SchedulePauseInput) => http.request<T.ScheduleAssignment>("POST", `${base}/pause`, input),
    resume: (input: T.ScheduleResumeInput) => http.request<T.ScheduleAssignment>("POST", `${base}/resume`, input),
  };
}

/**
 * The Relay ingestion API. Keys are role `client` (server-side secrets); the project is the key's.
 *
 * ```ts
 * const relay = new Relay({ apiKey: process.env.RELAY_KEY!, baseUrl: "https://relay.example.com" });
 * await relay.users.upsert({ identifier: [{ externalId: "u-1" }], email: "ada@example.com" });
 * relay.users.events.track({ name: "Purchased", identifier: [{ externalId: "u-1" }], data: { amount: 42 } });
 * await relay.close(); // sends what is still queued
 * ```
 */
export class Relay {
  readonly #http: Http;
  readonly #batchers: Batcher<T.UserEvent | T.OrganizationEvent>[];
  readonly #onExit = () => void this.flush();

  readonly users;
  readonly organizations;
  readonly messages;

  constructor(opts: RelayOptions) {
    this.#http = new Http(opts);
    const http = this.#http;
    const flushAt = Math.min(Math.max(1, opts.flushAt ?? 100), 1000);
    const interval = opts.flushIntervalMs ?? 1000;
    const events = <E>(kind: Kind) =>
      new Batcher<E>(
        async (batch) => {
          try {
            await http.request("POST", `/${kind}/events`, batch);
          } catch (e) {
            opts.onError?.(e);
            throw e;
          }
        },
        flushAt,
        interval,
      );
    const userEvents = events<T.UserEvent>("users");
    const orgEvents = events<T.OrganizationEvent>("organizations");
    this.#batchers = [userEvents, orgEvents] as Batcher<T.UserEvent | T.OrganizationEvent>[];

    this.users = {
      upsert: (input: T.UserInput) => http.request<T.User>("POST", "/users", input),
      /** Up to 1,000 users in one atomic request. */
      batch: (inputs: T.UserInput[]) => http.request<T.BatchResult<T.User>>("POST", "/users/batch", inputs),
      /** Erases the user and everything recorded against it. */
      delete: (input: T.IdentifyInput) => http.request<void>("DELETE", "/users", input),
      events: {
        /** Queues the event (batched); the promise settles when its batch is accepted or finally fails. */
        track: (event: T.UserEvent) => userEvents.add({ ...event, id: event.id ?? eventId() }),
      },
      schedules: scheduleVerbs(http, "users"),
      subscriptions: {
        set: (input: T.SubscriptionsInput) => http.request<T.Subscriptions>("POST", "/users/subscriptions", input),
      },
    };

    this.organizations = {
      upsert: (input: T.OrganizationInput) => http.request<T.Organization>("POST", "/organizations", input),
      batch: (inputs: T.OrganizationInput[]) =>
        http.request<T.BatchResult<T.Organization>>("POST", "/organizations/batch", inputs),
      /** Deletes the organization and its memberships; users stay. */
      delete: (input: T.IdentifyInput) => http.request<void>("DELETE", "/organizations", input),
      events: {
        track: (event: T.OrganizationEvent) => orgEvents.add({ ...event, id: event.id ?? eventId() }),
      },
      schedules: scheduleVerbs(http, "organizations"),
      members: {
        add: (input: T.MembershipInput) => http.request<T.Membership>("POST", "/organizations/users", input),
        remove: (input: T.MembershipRemoveInput) => http.request<void>("DELETE", "/organizations/users", input),
      },
    };

    this.messages = {
      /**
       * Sends one message of a template to a user (`202` once it is durable: `{ id, state }`). Every call
       * carries an `Idempotency-Key` (yours, or a fresh UUID), so this client's own retries never send twice;
       * give your own key (an order id) to make your retries of the same request safe too.
       */
      send: (input: T.SendMessageInput, opts: { idempotencyKey?: string } = {}) =>
        http.request<T.SentMessage>("POST", "/messages", input, {
          headers: { "idempotency-key": opts.idempotencyKey ?? globalThis.crypto.randomUUID() },
        }),
    };

    // Node: a process that ends with events queued sends them first (beforeExit allows async work).
    const proc = (globalThis as { process?: { once?: Function; off?: Function } }).process;
    proc?.once?.("beforeExit", this.#onExit);
  }

  /** Events waiting to be sent. */
  get pending(): number {
    return this.#batchers.reduce((n, b) => n + b.pending, 0);
  }

  /** Sends every queued event now and waits for every batch in flight. */
  async flush(): Promise<void> {
    await Promise.all(this.#batchers.map((b) => b.flush()));
  }

  /** Flushes and detaches from the process. */
  async close(): Promise<void> {
    const proc = (globalThis as { process?: { off?: Function } }).process;
    proc?.off?.("beforeExit", this.#onExit);
    await this.flush();
  }
}
