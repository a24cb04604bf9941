import { MAX_LIMIT, paginationQuery } from "@/lib/http/pagination";
import { z } from "zod";
import { tagList } from "@/lib/http/tags";
import { text } from "@/lib/http/json-value";
import { condition, rule } from "@/lib/lists/rule-schema";
import { goalSchema } from "@/lib/reports/schemas";
import { MAX_STEPS, stepInput, stepsInput } from "./step-schema";

const steps = stepsInput.meta({
  description: `0 to ${MAX_STEPS} steps; entrances lead to the first. Each \`next\` names a step's key and defaults to the next step in the array; none, or an \`exit\` step, ends the entry.`,
});
const paused = z.boolean().meta({
  description:
    "Holds every entry where it is (events still release waits, into the next step); resuming releases the due ones.",
});

const dataKey = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "letters, digits and _ (not starting with a digit)")
  .default("event")
  .meta({ description: "The event data is available downstream as `journey.<data_key>.<property>`. Default `event`." });

const eventEntrance = z.strictObject({
  kind: z.literal("event"),
  event_name: text().min(1),
  condition: z.array(condition).max(10).optional().meta({ description: "All must hold on the event's data." }),
  user_rule: rule.optional().meta({ description: "For organization events: only members matching this rule enter." }),
  data_key: dataKey,
});

const scheduledEntrance = z.strictObject({
  kind: z.literal("scheduled"),
  schedule_id: z.uuid(),
  schedule_offset_id: z.uuid(),
  data_key: dataKey,
});

export const entranceInput = z
  .discriminatedUnion("kind", [eventEntrance, scheduledEntrance])
  .meta({ id: "JourneyEntranceInput" });

const keptId = {
  id: z.uuid().optional().meta({
    description:
      "An existing entrance's id: it is updated in place, so its entries keep pointing at it. Omit for a new entrance.",
  }),
};
export const entranceEdit = z
  .discriminatedUnion("kind", [eventEntrance.extend(keptId), scheduledEntrance.extend(keptId)])
  .meta({ id: "JourneyEntranceEdit" });

/** A replacement of a journey's settings and entrances; entrances not named (by id) are removed. */
export const journeyPatch = z
  .strictObject({
    name: text().min(1).optional(),
    allow_multiple_entries: z.boolean().optional(),
    allow_concurrent_runs: z.boolean().optional(),
    entrances: z.array(entranceEdit).min(1).max(20).optional(),
    steps: steps.optional().meta({
      description:
        "Replaces the steps, matched by key: entries at a removed step move on to its `next` at once (recorded in their path); a changed delay applies to those who reach it afterwards.",
    }),
    paused: paused.optional(),
    goal: goalSchema.nullable().optional().meta({ description: "null removes the goal; omitted keeps it." }),
    tags: tagList.optional(),
  })
  .meta({ id: "JourneyPatch" });
export type JourneyPatch = z.output<typeof journeyPatch>;

export const journeyInput = z
  .strictObject({
    name: text().min(1),
    allow_multiple_entries: z
      .boolean()
      .default(false)
      .meta({ description: "A user may enter again after an earlier entry." }),
    allow_concurrent_runs: z
      .boolean()
      .default(false)
      .meta({ description: "A user may enter while an earlier entry is still active." }),
    entrances: z.array(entranceInput).min(1).max(20),
    steps: steps.default([]),
    paused: paused.default(false),
    goal: goalSchema.nullable().optional().meta({
      description:
        "A conversion goal: credited to the latest message of the journey sent to the user within its window.",
    }),
    tags: tagList.optional(),
  })
  .meta({ id: "JourneyInput" });
export type JourneyInput = z.output<typeof journeyInput>;

export const entranceOutput = z
  .object({
    id: z.uuid(),
    kind: z.enum(["event", "scheduled"]),
    event_name: z.string().nullable(),
    condition: z.unknown().nullable(),
    user_rule: z.unknown().nullable(),
    schedule_id: z.uuid().nullable(),
    schedule_offset_id: z.uuid().nullable(),
    data_key: z.string(),
  })
  .meta({ id: "JourneyEntrance" });

export const journeyOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    allow_multiple_entries: z.boolean(),
    allow_concurrent_runs: z.boolean(),
    entrances: z.array(entranceOutput),
    steps: z.array(stepInput),
    paused: z.boolean(),
    goal: goalSchema.nullable(),
    tags: z.array(z.string()),
    step_counts: z
      .record(
        z.string(),
        z.object({
          waiting: z.number().int(),
          waiting_capped: z.boolean().meta({ description: "More entries are at the step than `waiting` (10,000)." }),
          passed: z.number().int(),
        }),
      )
      .meta({
        description: "Per step key: entries at the step now (counted up to 10,000), and entries that passed it in all.",
      }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Journey" });
export type JourneyView = z.infer<typeof journeyOutput>;

export const journeyEntryOutput = z
  .object({
    id: z.uuid(),
    entrance_id: z.uuid(),
    user_id: z.uuid(),
    event_id: z.uuid(),
    context: z
      .record(z.string(), z.unknown())
      .meta({ description: "`{<data_key>: <event data>}`: read as `journey.<data_key>.<property>`." }),
    sendable: z.object({ email: z.boolean(), sms: z.boolean(), push: z.boolean() }).meta({
      description:
        "Whether the user could be sent to on each channel at entry: a contact for it (e-mail, phone) and no whole-channel opt-out such as SMS STOP. A group's own subscription state is still checked per message with `GET /subscriptions/check`.",
    }),
    entered_at: z.iso.datetime(),
    exited_at: z.iso.datetime().nullable(),
    step_key: z
      .string()
      .nullable()
      .meta({ description: "The step the entry is at; null once exited or in a journey without steps." }),
    state: z.enum(["active", "waiting", "exited"]),
    wake_at: z.iso.datetime().nullable().meta({ description: "When a delay ends or a wait times out." }),
    waiting_for: z.record(z.string(), z.unknown()).nullable().meta({
      description: "`{kind: delay|event|list|message, …}`: what the entry waits for at its step.",
    }),
  })
  .meta({ id: "JourneyEntry" });

export const journeyEntryPathOutput = journeyEntryOutput
  .extend({
    path: z.array(
      z.object({
        step_key: z.string(),
        kind: z.string(),
        entered_at: z.iso.datetime(),
        left_at: z.iso.datetime(),
        outcome: z.string().meta({
          description:
            "`delayed until …`, `released by event …`, `timed out`, `branch: true`, `split: path 2`, `sent message …`, `skipped: …`.",
        }),
      }),
    ),
    path_next_cursor: z.string().nullable().meta({
      description: "More of the path after these rows: pass it as `cursor` (null at its end).",
    }),
  })
  .meta({ id: "JourneyEntryWithPath" });

/** A page of an entry's path: `limit` rows (at most 500) after `cursor`, oldest first. */
export const entryPathQuery = paginationQuery.extend({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(100),
});
export type JourneyEntryPathView = z.infer<typeof journeyEntryPathOutput>;
