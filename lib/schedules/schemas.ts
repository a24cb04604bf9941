import { z } from "zod";
import { dataObject, text } from "@/lib/http/json-value";
import { identifierList } from "@/lib/identity/schemas";

/** Schedule names become event names (`scheduled.<name>`): no spaces, nothing a client could confuse. */
export const scheduleName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/, "letters, digits, `_`, `.`, `:` and `-` only, e.g. trial_end")
  .meta({ description: "Fired events are named `scheduled.<name>`." });

/** Checked by PostgreSQL itself (`$1::interval`) in the verb; here only its length. */
export const intervalText = text(100)
  .min(1)
  .meta({ description: "A PostgreSQL interval such as `30 minutes`, `7 days`, `1 month`." });

export const offsetInput = z
  .strictObject({
    offset: intervalText,
    direction: z.enum(["before", "after"]),
  })
  .meta({ id: "ScheduleOffsetInput" });
export type OffsetInput = z.output<typeof offsetInput>;

export const scheduleInput = z
  .strictObject({
    name: scheduleName,
    type: z.enum(["single", "recurring"]),
    offsets: z
      .array(offsetInput)
      .max(50)
      .optional()
      .meta({ description: "Added after the default `0 minutes after`." }),
  })
  .meta({ id: "ScheduleInput" });
export type ScheduleInput = z.output<typeof scheduleInput>;

export const assignmentInput = z
  .strictObject({
    name: scheduleName,
    identifier: identifierList,
    type: z.enum(["single", "recurring"]).optional().meta({
      description:
        "Optional: implied by `scheduled_at` (single) or `interval` (recurring); when given it must agree with them.",
    }),
    scheduled_at: z.iso.datetime({ offset: true }).optional().meta({ description: "Fire time of a single schedule." }),
    interval: intervalText.optional().meta({ description: "Makes the schedule recurring, e.g. `7 days`." }),
    start_at: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: "Recurring only: the anchor; default now (first occurrence one interval later)." }),
    data: dataObject().optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.scheduled_at === undefined) === (v.interval === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["scheduled_at"],
        message: "give exactly one of scheduled_at and interval",
      });
    }
    if (v.type === "single" && v.interval !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["type"],
        message: "type single contradicts interval: a single schedule takes scheduled_at",
      });
    } else if (v.type === "recurring" && v.scheduled_at !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["type"],
        message: "type recurring contradicts scheduled_at: a recurring schedule takes interval",
      });
    }
    if (v.start_at !== undefined && v.interval === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["start_at"],
        message: "start_at is for recurring schedules (with interval)",
      });
    }
  })
  .meta({ id: "ScheduleAssignmentInput" });
export type AssignmentInput = z.output<typeof assignmentInput>;

export const unassignInput = z
  .strictObject({ name: scheduleName, identifier: identifierList })
  .meta({ id: "ScheduleUnassignInput" });
export type UnassignInput = z.output<typeof unassignInput>;

export const pauseModes = ["immediately", "after_next_interval"] as const;
export const resumeModes = ["immediately", "at_next_interval"] as const;
export type PauseMode = (typeof pauseModes)[number];
export type ResumeMode = (typeof resumeModes)[number];

export const pauseInput = z
  .strictObject({ name: scheduleName, identifier: identifierList, mode: z.enum(pauseModes) })
  .meta({ id: "SchedulePauseInput" });
export const resumeInput = z
  .strictObject({ name: scheduleName, identifier: identifierList, mode: z.enum(resumeModes) })
  .meta({ id: "ScheduleResumeInput" });

/** Admin PATCH of one assignment: pause (`state: "paused"`) or resume (`state: "active"`). */
export const assignmentPatchInput = z
  .discriminatedUnion("state", [
    z.strictObject({ state: z.literal("paused"), mode: z.enum(pauseModes) }),
    z.strictObject({ state: z.literal("active"), mode: z.enum(resumeModes) }),
  ])
  .meta({ id: "ScheduleAssignmentPatch" });
export type AssignmentPatch = z.output<typeof assignmentPatchInput>;

export const offsetOutput = z
  .object({ id: z.uuid(), offset: z.string(), direction: z.enum(["before", "after"]), created_at: z.iso.datetime() })
  .meta({ id: "ScheduleOffset" });

export const scheduleOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    type: z.enum(["single", "recurring"]),
    builtin: z.boolean(),
    offsets: z.array(offsetOutput),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Schedule" });
export type ScheduleView = z.infer<typeof scheduleOutput>;

export const firingOutput = z
  .object({
    offset_id: z.uuid(),
    offset: z.string(),
    direction: z.enum(["before", "after"]),
    cycle: z.number().int(),
    fire_at: z.iso.datetime(),
    state: z.enum(["pending", "fired", "skipped", "failed"]),
  })
  .meta({ id: "ScheduleFiring" });

export const assignmentOutput = z
  .object({
    id: z.uuid(),
    schedule_id: z.uuid(),
    name: z.string(),
    type: z.enum(["single", "recurring"]),
    user_id: z.uuid().nullable(),
    organization_id: z.uuid().nullable(),
    subject_label: z
      .string()
      .nullable()
      .meta({ description: "The user or organization by first identifier, else e-mail (null when it is gone)." }),
    state: z.enum(["active", "paused", "fired"]),
    pause_mode: z.enum(pauseModes).nullable(),
    interval: z.string().nullable(),
    scheduled_at: z.iso.datetime().nullable().meta({ description: "Single schedules: the fire time." }),
    start_at: z.iso.datetime().nullable().meta({ description: "Recurring: the anchor occurrences count from." }),
    occurrence_at: z.iso.datetime().meta({ description: "The current cycle's occurrence (before offsets)." }),
    next_fire_at: z.iso.datetime().nullable().meta({ description: "The earliest pending firing, if any." }),
    pending: z.array(firingOutput),
    skipped: z.number().int().meta({ description: "Firings skipped because they were over an hour late." }),
    data: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "ScheduleAssignment" });
export type AssignmentView = z.infer<typeof assignmentOutput>;
