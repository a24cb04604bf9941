import type { z } from "zod";
import type { eventOutput } from "@/lib/events/view";
import type { schemaOutput } from "@/lib/events/list-schema";
import type { identifierOutput } from "@/lib/identity/schemas";
import type { InviteView, myInviteOutput } from "@/lib/invites/schemas";
import type { JourneyView } from "@/lib/journeys/schemas";
import type { DeliveryView, DestinationView } from "@/lib/destinations/schemas";
import type { KeyView } from "@/lib/keys/schemas";
import type { ListView } from "@/lib/lists/schemas";
import type { inheritedAdminOutput, MemberView } from "@/lib/members/schemas";
import type { organizationDetail, userDetail } from "@/lib/openapi/admin-paths";
import type { OrganizationView } from "@/lib/organizations/schemas";
import type { assignmentOutput, offsetOutput, ScheduleView } from "@/lib/schedules/schemas";
import type { groupOutput, settingsOutput, userSubscriptionOutput } from "@/lib/subscriptions/schemas";
import type { UserView } from "@/lib/users/schemas";

/**
 * What the admin API answers, typed from the zod schemas the API and its OpenAPI document use (through
 * the view type a lib module names for its output, where it names one): a changed response shape breaks
 * the console's build instead of its pages. Type-only imports, so none of these schemas (or what they
 * import) reach the browser bundle.
 */
export type Page<T> = { data: T[]; next_cursor: string | null };
export type Identifier = z.output<typeof identifierOutput>;
export type EventRow = z.output<typeof eventOutput>;
export type EventSchema = z.output<typeof schemaOutput>["data"][number];
export type UserRow = UserView;
export type OrganizationRow = OrganizationView;
export type UserDetail = z.output<typeof userDetail>;
export type OrganizationDetail = z.output<typeof organizationDetail>;
export type List = ListView;
export type Journey = JourneyView;
export type Schedule = ScheduleView;
export type Offset = z.output<typeof offsetOutput>;
export type Assignment = z.output<typeof assignmentOutput>;
export type ApiKey = KeyView;
export type Member = MemberView;
export type Roster = Page<Member> & { inherited: z.output<typeof inheritedAdminOutput>[] };
export type Invite = InviteView;
export type MyInvite = z.output<typeof myInviteOutput>;
export type SubscriptionGroup = z.output<typeof groupOutput>;
export type SubscriptionSettings = z.output<typeof settingsOutput>;
export type UserSubscription = z.output<typeof userSubscriptionOutput>;
export type Destination = DestinationView;
export type Delivery = DeliveryView;
export type ListExplanation = import("@/lib/explain/schemas").ListExplanation;
export type JourneyExplanation = import("@/lib/explain/schemas").JourneyExplanation;
export type TimelineItem = import("@/lib/explain/schemas").TimelineItem;
export type EventTrace = import("@/lib/explain/trace-sections").EventTrace;
export type EventListItem = z.output<typeof import("@/lib/events/view").eventListItem>;
export type ExplainedNode = import("@/lib/lists/explained-rule").ExplainedNode;
