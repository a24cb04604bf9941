import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { explainedNode } from "@/lib/lists/explained-rule";

/*
 * Request queries and response shapes of the explain, trace and timeline endpoints: the routes, the
 * OpenAPI document and the console read these.
 */

export const explainQuery = z.object({ user_id: z.uuid() }).meta({ id: "ExplainQuery" });

const change = z
  .object({
    change: z.enum(["added", "removed"]),
    at: z.iso.datetime(),
    cause: z.enum(["event", "rebuild", "manual"]).meta({
      description:
        "`event`: the event `event_id` re-evaluated the user; `rebuild`: the list was re-evaluated (rules changed, or its window moved); `manual`: a static list edited by `by`.",
    }),
    event_id: z.uuid().nullable(),
    event_name: z.string().nullable(),
    by: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "Who edited a static list: `{kind: admin, email}` or `{kind: api_key, key_id}`." }),
  })
  .meta({ id: "ListChangeCause" });

export const listExplanation = z
  .object({
    list: z.object({ id: z.uuid(), name: z.string(), kind: z.enum(["dynamic", "static"]) }),
    user_id: z.uuid(),
    member: z.boolean().meta({ description: "What is stored: the user is a member now." }),
    member_since: z.iso.datetime().nullable(),
    last_change: change.nullable().meta({ description: "The latest stored membership change, with its cause." }),
    matches: z.boolean().nullable().meta({
      description:
        "Dynamic lists: the rules evaluated now against the user's stored data and events (null for static lists). Differs from `member` only until the pipeline catches up (or a window moves).",
    }),
    rules: explainedNode.nullable().meta({ description: "The rule tree with every node's verdict and readings." }),
  })
  .meta({ id: "ListExplanation" });
export type ListExplanation = z.infer<typeof listExplanation>;

const conditionReading = z.object({
  path: z.string(),
  op: z.string(),
  value: z.unknown().optional(),
  seen: z.unknown(),
  missing: z.boolean(),
  passed: z.boolean(),
});

const candidate = z
  .object({
    event_id: z.uuid(),
    name: z.string(),
    occurred_at: z.iso.datetime(),
    organization_id: z.uuid().nullable(),
    conditions: z.array(conditionReading),
    triggers: z.boolean().meta({ description: "The entrance's event name and every condition hold for this event." }),
    member_rule_passed: z
      .boolean()
      .nullable()
      .meta({ description: "Organization events: whether the user passes the entrance's member rule now." }),
    entry_id: z.uuid().nullable().meta({ description: "The entry this event made for the user, if any." }),
  })
  .meta({ id: "JourneyCandidateEvent" });

export const journeyExplanation = z
  .object({
    journey: z.object({
      id: z.uuid(),
      name: z.string(),
      allow_multiple_entries: z.boolean(),
      allow_concurrent_runs: z.boolean(),
    }),
    user_id: z.uuid(),
    reentry: z
      .object({
        verdict: z.enum(["allowed", "already_active", "entered_before"]),
        entered_before: z.boolean(),
        active: z.boolean(),
      })
      .meta({
        description:
          "Whether the re-entry rule lets the user enter now: `entered_before` (an earlier entry and multiple entries off), `already_active` (an active entry and concurrent runs off), else `allowed`.",
      }),
    entrances: z.array(
      z.object({
        id: z.uuid(),
        kind: z.enum(["event", "scheduled"]),
        event_name: z.string().nullable(),
        schedule_id: z.uuid().nullable(),
        schedule_offset_id: z.uuid().nullable(),
        member_rule: explainedNode
          .nullable()
          .meta({ description: "For organization events: the entrance's member rule evaluated for the user now." }),
        candidates: z.array(candidate).meta({ description: "The latest events that could have entered the user." }),
      }),
    ),
    entries: z.array(
      z.object({
        id: z.uuid(),
        entrance_id: z.uuid(),
        event_id: z.uuid(),
        event_name: z.string().nullable(),
        entered_at: z.iso.datetime(),
        exited_at: z.iso.datetime().nullable(),
        step_key: z.string().nullable(),
        state: z.enum(["active", "waiting", "exited"]),
        path: z
          .array(z.object({ step_key: z.string(), kind: z.string(), left_at: z.iso.datetime(), outcome: z.string() }))
          .meta({ description: "The steps the entry passed, in order, with their outcomes." }),
      }),
    ),
  })
  .meta({ id: "JourneyExplanation" });
export type JourneyExplanation = z.infer<typeof journeyExplanation>;

const recordRef = z.object({
  kind: z.enum(["user", "organization"]),
  id: z.uuid(),
  label: z.string().nullable().meta({ description: "First identifier, else e-mail; null when the record is gone." }),
});

/** The trace apart from its sections (lib/explain/trace-sections.ts adds those). */
export const eventTraceBase = z.object({
  id: z.uuid(),
  name: z.string(),
  origin: z.enum(["system", "client"]).nullable(),
  data: z.record(z.string(), z.unknown()),
  occurred_at: z.iso.datetime().nullable(),
  received_at: z.iso.datetime(),
  recorded_at: z.iso.datetime().nullable().meta({
    description:
      "When it was written to the event history: system events are recorded when received; for client events the pipeline does not keep this time (null).",
  }),
  record: recordRef
    .extend({
      created: z.boolean().meta({ description: "The event's identifiers named nobody: it created this record." }),
    })
    .nullable(),
  schema_paths_added: z.array(z.string()).meta({ description: "Property paths first seen with this event." }),
  fanout: z
    .object({
      state: z.enum(["running", "finished", "refused"]),
      planned: z.number().int().nullable(),
      delivered: z.number().int(),
      refusal: z.string().nullable(),
      finished_at: z.iso.datetime().nullable(),
    })
    .nullable()
    .meta({
      description: "For a `match` event: its fan-out to every matching record (each recipient's event is its own).",
    }),
});
export type EventTraceBase = z.infer<typeof eventTraceBase>;

export const TIMELINE_KINDS = [
  "event",
  "list_added",
  "list_removed",
  "journey_entered",
  "journey_exited",
  "journey_step",
  "schedule_fired",
  "subscription_changed",
  "delivery",
  "message",
] as const;

export const timelineItem = z
  .object({
    at: z.iso.datetime(),
    id: z
      .uuid()
      .meta({ description: "The row's id (event, list change, journey entry, subscription change, message)." }),
    kind: z.enum(TIMELINE_KINDS),
    title: z.string().meta({ description: "One line saying what happened." }),
    event_id: z.uuid().nullable().meta({ description: "The event this item is, or that caused it." }),
    detail: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "TimelineItem" });
export type TimelineItem = z.infer<typeof timelineItem>;

export const timelineQuery = paginationQuery
  .extend({ limit: z.coerce.number().int().min(1).max(200).default(50) })
  .meta({ id: "TimelineQuery" });
