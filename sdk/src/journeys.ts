import { AdminClient, type Body, type Defaulted, type Json, type Page, type Query, query, seg } from "./admin.js";
import type { components, paths } from "./generated/api.js";

type P = "/api/admin/projects/{projectID}/journeys";
type S = components["schemas"];

export type Journey = Json<paths[`${P}/{id}`]["get"]["responses"][200]>;
export type JourneyEntry = Json<paths[`${P}/{id}/entries`]["get"]["responses"][200]>["data"][number];
/** An entry with its path: each step passed, when, and the outcome (`delayed until …`, `branch: true`). */
export type JourneyEntryWithPath = Json<paths[`${P}/{id}/entries/{entryId}`]["get"]["responses"][200]>;
/** A step as written: defaults (a delay's `until.timezone` `user`, a list wait's `in` true) may be left out. */
export type JourneyStepInput = S["JourneyStep"] extends infer T
  ? T extends { kind: "delay"; until?: infer U }
    ? Omit<T, "until"> & { until?: Defaulted<U, "timezone"> }
    : T extends { kind: "wait"; list?: infer L }
      ? Omit<T, "list"> & { list?: Defaulted<L, "in"> }
      : T
  : never;
export type JourneyEntranceInput = Defaulted<S["JourneyEntranceInput"], "data_key">;
/** `allow_multiple_entries`, `allow_concurrent_runs` and `paused` default to false, `steps` to none. */
export type JourneyInput = Omit<
  Defaulted<Body<paths[P]["post"]>, "allow_multiple_entries" | "allow_concurrent_runs" | "paused">,
  "entrances" | "steps"
> & { entrances: JourneyEntranceInput[]; steps?: JourneyStepInput[] };
export type JourneyChange = Omit<Body<paths[`${P}/{id}`]["patch"]>, "entrances" | "steps"> & {
  entrances?: Defaulted<S["JourneyEntranceEdit"], "data_key">[];
  steps?: JourneyStepInput[];
};

/**
 * The journeys admin API: journeys with their entrances and steps (`delay`, `wait`, `branch`, `split`,
 * `send`, `update`, `exit`), their entries and each entry's path. Shapes are the API's own snake_case
 * ones; conditions, rules and step data pass through untouched. Why a user did (not) enter:
 * `RelayExplain`.
 *
 * ```ts
 * const journeys = new RelayJourneys({ apiKey, baseUrl, projectId });
 * const j = await journeys.create({
 *   name: "Onboarding",
 *   entrances: [{ kind: "event", event_name: "Signed up" }],
 *   steps: [{ key: "wait", kind: "delay", duration: "2 days" }, { key: "hello", kind: "send", template_id }],
 * });
 * const { path } = await journeys.entry(j.id, entryId);
 * ```
 */
export class RelayJourneys extends AdminClient {
  list(q: Query<paths[P]["get"]> = {}) {
    return this.call<Page<Journey>>("GET", `/journeys${query(q)}`);
  }
  /** A bad step is a `RelayValidationError` naming it by path (`steps[3].next`). */
  create(input: JourneyInput) {
    return this.call<Journey>("POST", "/journeys", input);
  }
  get(id: string) {
    return this.call<Journey>("GET", `/journeys${seg(id)}`);
  }
  /** Settings given are changed; `entrances` and `steps`, when given, replace them (steps matched by key). */
  update(id: string, change: JourneyChange) {
    return this.call<Journey>("PATCH", `/journeys${seg(id)}`, change);
  }
  /** Deletes its entrances and entries too. */
  delete(id: string) {
    return this.call<void>("DELETE", `/journeys${seg(id)}`);
  }
  /** Newest first; `step_key` finds who is at a step now. */
  entries(id: string, q: Query<paths[`${P}/{id}/entries`]["get"]> = {}) {
    return this.call<Page<JourneyEntry>>("GET", `/journeys${seg(id)}/entries${query(q)}`);
  }
  /** One entry with its path. */
  entry(id: string, entryId: string) {
    return this.call<JourneyEntryWithPath>("GET", `/journeys${seg(id)}/entries${seg(entryId)}`);
  }
  /** Ends an active entry now. */
  exitEntry(id: string, entryId: string) {
    return this.call<void>("POST", `/journeys${seg(id)}/entries${seg(entryId)}/exit`);
  }
}
