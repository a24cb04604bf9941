import { adminCall, type Body, type Json, type Page, query } from "./admin.js";
import type { paths } from "./generated/api.js";
import type { HttpOptions } from "./http.js";

export type { Page } from "./admin.js";

type Base = "/api/admin/projects/{projectID}/destinations";

/** A destination with its health, as the API answers (snake_case, exactly the wire shape). */
export type Destination = Json<paths[`${Base}/{id}`]["get"]["responses"][200]>;
export type CreatedDestination = Json<paths[Base]["post"]["responses"][201]>;
/** `enabled` defaults to true (the document lists fields with defaults as present). */
export type DestinationInput = Omit<Body<paths[Base]["post"]>, "enabled"> & { enabled?: boolean };
export type DestinationChange = Body<paths[`${Base}/{id}`]["patch"]>;
export type Delivery = Json<paths[`${Base}/{id}/test`]["post"]["responses"][200]>;
export type RotatedSecret = Json<paths[`${Base}/{id}/rotate-secret`]["post"]["responses"][200]>;
export type ReplayWindow = Body<paths[`${Base}/{id}/replay`]["post"]>;

export interface RelayDestinationsOptions extends HttpOptions {
  /** The project whose destinations these are; the key needs role `support` to read, `editor` to write. */
  projectId: string;
}

/**
 * The destinations admin API (webhooks Relay sends events to). Shapes are the API's own snake_case
 * ones; `filter` and event data pass through untouched.
 *
 * ```ts
 * const destinations = new RelayDestinations({ apiKey, baseUrl, projectId });
 * const { secret } = await destinations.create({ name: "Warehouse", url: "https://hooks.example.com/relay", events: ["*"] });
 * ```
 */
export class RelayDestinations {
  readonly #admin: ReturnType<typeof adminCall>;

  constructor(opts: RelayDestinationsOptions) {
    this.#admin = adminCall(opts);
  }

  #call<T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown) {
    return this.#admin<T>(method, `/destinations${path}`, body);
  }

  list(q: { limit?: number; cursor?: string } = {}) {
    return this.#call<Page<Destination>>("GET", query(q));
  }
  /** The answer carries the signing secret (`whsec_…`), shown this once. */
  create(input: DestinationInput) {
    return this.#call<CreatedDestination>("POST", "", input);
  }
  get(id: string) {
    return this.#call<Destination>("GET", `/${id}`);
  }
  update(id: string, change: DestinationChange) {
    return this.#call<Destination>("PATCH", `/${id}`, change);
  }
  delete(id: string) {
    return this.#call<void>("DELETE", `/${id}`);
  }
  /** A new secret (shown once); the previous one keeps signing for 24 h. */
  rotateSecret(id: string) {
    return this.#call<RotatedSecret>("POST", `/${id}/rotate-secret`);
  }
  /** Sends a signed `relay.ping` now. */
  test(id: string) {
    return this.#call<Delivery>("POST", `/${id}/test`);
  }
  deliveries(id: string, q: { state?: "pending" | "delivered" | "failed"; limit?: number; cursor?: string } = {}) {
    return this.#call<Page<Delivery>>("GET", `/${id}/deliveries${query(q)}`);
  }
  /** Sends the message again now with its original `webhook-id`. */
  retry(id: string, deliveryId: string) {
    return this.#call<Delivery>("POST", `/${id}/deliveries/${deliveryId}/retry`);
  }
  /** Re-sends the events of a window (role `admin`; at most 7 days and 10,000 messages). */
  replay(id: string, window: ReplayWindow) {
    return this.#call<{ queued: number }>("POST", `/${id}/replay`, window);
  }
}
