import { Http, type HttpOptions } from "./http.js";
import type * as T from "./types.js";

export interface RelayExplainOptions extends HttpOptions {
  /** The project the key (role `support` or above) belongs to. */
  projectId: string;
}

/**
 * The explain endpoints, for support tooling: why a user is or is not in a list or a journey, where an
 * event went, and a user's timeline. Needs an admin API key of role `support` or above.
 *
 * ```ts
 * const explain = new RelayExplain({ apiKey: process.env.RELAY_SUPPORT_KEY!, baseUrl, projectId });
 * const why = await explain.list(listId, userId); // why.member, why.matches, why.rules (the evaluated tree)
 * ```
 */
export class RelayExplain {
  readonly #http: Http;
  readonly #prefix: string;

  constructor(opts: RelayExplainOptions) {
    this.#http = new Http(opts);
    this.#prefix = `/api/admin/projects/${encodeURIComponent(opts.projectId)}`;
  }

  #get<R>(path: string): Promise<R> {
    return this.#http.request<R>("GET", `${this.#prefix}${path}`, undefined);
  }

  /** Why the user is or is not in the list: stored membership, latest change and cause, rules evaluated now. */
  list(listId: string, userId: string): Promise<T.ListExplanation> {
    return this.#get(`/lists/${encodeURIComponent(listId)}/explain?user_id=${encodeURIComponent(userId)}`);
  }

  /** Why the user is or is not in the journey: candidate events, conditions, member rule, re-entry verdict, entries. */
  journey(journeyId: string, userId: string): Promise<T.JourneyExplanation> {
    return this.#get(`/journeys/${encodeURIComponent(journeyId)}/explain?user_id=${encodeURIComponent(userId)}`);
  }

  /** Where the event went: its record, schema paths, list changes, journey entries, fan-out. */
  trace(eventId: string): Promise<T.EventTrace> {
    return this.#get(`/events/${encodeURIComponent(eventId)}/trace`);
  }

  /** One page of the user's timeline, newest first; pass `nextCursor` back for the next page. */
  timeline(userId: string, page: { limit?: number; cursor?: string } = {}): Promise<T.Timeline> {
    const q = new URLSearchParams();
    if (page.limit) q.set("limit", String(page.limit));
    if (page.cursor) q.set("cursor", page.cursor);
    return this.#get(`/users/${encodeURIComponent(userId)}/timeline${q.size ? `?${q}` : ""}`);
  }
}
