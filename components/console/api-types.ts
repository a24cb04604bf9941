import type { z } from "zod";
import type { eventOutput } from "@/lib/events/view";
import type { schemaOutput } from "@/lib/events/list-schema";
import type { identifierOutput } from "@/lib/identity/schemas";
import type { inviteOutput, myInviteOutput } from "@/lib/invites/schemas";
import type { journeyOutput } from "@/lib/journeys/schemas";
import type { deliveryOutput, destinationOutput } from "@/lib/destinations/schemas";
import type { keyOutput } from "@/lib/keys/schemas";
import type { listOutput } from "@/lib/lists/schemas";
import type { inheritedAdminOutput, memberOutput } from "@/lib/members/schemas";
import type { organizationDetail, userDetail } from "@/lib/openapi/admin-paths";
import type { organizationOutput } from "@/lib/organizations/schemas";
import type { assignmentOutput, offsetOutput, scheduleOutput } from "@/lib/schedules/schemas";
import type { groupOutput, settingsOutput, userSubscriptionOutput } from "@/lib/subscriptions/schemas";
import type { userOutput } from "@/lib/users/schemas";

/**
 * What the admin API answers, typed from the zod schemas the API and its OpenAPI document use: a
 * changed response shape breaks the console's build instead of its pages. Type-only imports, so none
 * of these schemas (or what they import) reach the browser bundle.
 */
export type Page<T> = { data: T[]; next_cursor: string | null };
export type Identifier = z.output<typeof identifierOutput>;
export type EventRow = z.output<typeof eventOutput>;
export type EventSchema = z.output<typeof schemaOutput>["data"][number];
export type UserRow = z.output<typeof userOutput>;
export type OrganizationRow = z.output<typeof organizationOutput>;
export type UserDetail = z.output<typeof userDetail>;
export type OrganizationDetail = z.output<typeof organizationDetail>;
export type List = z.output<typeof listOutput>;
export type Journey = z.output<typeof journeyOutput>;
export type Schedule = z.output<typeof scheduleOutput>;
export type Offset = z.output<typeof offsetOutput>;
export type Assignment = z.output<typeof assignmentOutput>;
export type ApiKey = z.output<typeof keyOutput>;
export type Member = z.output<typeof memberOutput>;
export type Roster = Page<Member> & { inherited: z.output<typeof inheritedAdminOutput>[] };
export type Invite = z.output<typeof inviteOutput>;
export type MyInvite = z.output<typeof myInviteOutput>;
export type SubscriptionGroup = z.output<typeof groupOutput>;
export type SubscriptionSettings = z.output<typeof settingsOutput>;
export type UserSubscription = z.output<typeof userSubscriptionOutput>;
export type Destination = z.output<typeof destinationOutput>;
export type Delivery = z.output<typeof deliveryOutput>;
export type ListExplanation = import("@/lib/explain/schemas").ListExplanation;
export type JourneyExplanation = import("@/lib/explain/schemas").JourneyExplanation;
export type TimelineItem = import("@/lib/explain/schemas").TimelineItem;
export type EventTrace = import("@/lib/explain/trace-sections").EventTrace;
export type EventListItem = z.output<typeof import("@/lib/events/view").eventListItem>;
export type ExplainedNode = import("@/lib/lists/explained-rule").ExplainedNode;
