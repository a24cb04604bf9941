import type { Camelize } from "./case.js";
import type { paths } from "./generated/api.js";

/**
 * Every input and output type is derived from the generated OpenAPI types (src/generated/api.ts, which
 * joins one openapi-typescript file per part of the API; `npm run generate` makes them from the
 * server's document), so a change to the API changes these types.
 */
type Op<P extends keyof paths, M extends "post" | "delete"> = NonNullable<paths[P][M]>;
type BodyOf<P extends keyof paths, M extends "post" | "delete"> =
  Op<P, M> extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
type OkOf<P extends keyof paths, M extends "post" | "delete"> =
  Op<P, M> extends { responses: infer R }
    ? R extends { 200: { content: { "application/json": infer B } } }
      ? B
      : R extends { 201: { content: { "application/json": infer B } } }
        ? B
        : R extends { 202: { content: { "application/json": infer B } } }
          ? B
          : undefined
    : never;

/** The camelCase input of `M path`. */
export type Input<P extends keyof paths, M extends "post" | "delete" = "post"> = Camelize<BodyOf<P, M>>;
/** The camelCase answer of `M path`. */
export type Output<P extends keyof paths, M extends "post" | "delete" = "post"> = Camelize<OkOf<P, M>>;

export type UserInput = Input<"/api/client/users">;
export type User = Output<"/api/client/users">;
export type IdentifyInput = Input<"/api/client/users", "delete">;
export type UserEvent = Input<"/api/client/users/events">[number];
export type OrganizationInput = Input<"/api/client/organizations">;
export type Organization = Output<"/api/client/organizations">;
export type OrganizationEvent = Input<"/api/client/organizations/events">[number];
export type MembershipInput = Input<"/api/client/organizations/users">;
export type MembershipRemoveInput = Input<"/api/client/organizations/users", "delete">;
export type Membership = Output<"/api/client/organizations/users">;
export type ScheduleAssignmentInput = Input<"/api/client/users/scheduled">;
export type ScheduleUnassignInput = Input<"/api/client/users/scheduled", "delete">;
export type SchedulePauseInput = Input<"/api/client/users/scheduled/pause">;
export type ScheduleResumeInput = Input<"/api/client/users/scheduled/resume">;
export type ScheduleAssignment = Output<"/api/client/users/scheduled">;
export type SendMessageInput = Input<"/api/client/messages">;
export type SentMessage = Output<"/api/client/messages">;
export type SubscriptionsInput = Input<"/api/client/users/subscriptions">;
export type Subscriptions = Output<"/api/client/users/subscriptions">;
export type BatchResult<T> = { data: T[]; created: number; updated: number };

type GetOk<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": infer B } } } };
}
  ? Camelize<B>
  : never;
export type ListExplanation = GetOk<"/api/admin/projects/{projectID}/lists/{id}/explain">;
export type JourneyExplanation = GetOk<"/api/admin/projects/{projectID}/journeys/{id}/explain">;
export type EventTrace = GetOk<"/api/admin/projects/{projectID}/events/{id}/trace">;
export type Timeline = GetOk<"/api/admin/projects/{projectID}/users/{id}/timeline">;
