import { z } from "zod";
import { dataObject, text } from "@/lib/http/json-value";
import { condition, rule } from "@/lib/lists/rule-schema";

/*
 * A journey's steps as zod schemas, apart from the engine (advance-due.ts): the console's editor imports
 * these, so nothing here may reach the database driver.
 */

export const STEP_KINDS = ["delay", "wait", "branch", "split", "send", "update", "exit"] as const;
export type StepKind = (typeof STEP_KINDS)[number];
export const MAX_STEPS = 100;
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

const key = z
  .string()
  .regex(/^[a-z0-9_-]{1,40}$/, "1 to 40 of a-z, 0-9, _ and -")
  .meta({ description: "Unique in the journey and kept across edits: entries at a step are matched by it." });
const next = key.optional().meta({ description: "The following step's key; default the next step in the array." });
const duration = text(64).meta({
  description: "The schedule interval syntax, seconds allowed: `4 seconds`, `30 minutes`, `2 days`.",
});

const delay = z.strictObject({
  key,
  kind: z.literal("delay"),
  next,
  duration: duration.optional(),
  until: z
    .strictObject({
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM, 24-hour"),
      weekdays: z.array(z.enum(WEEKDAYS)).min(1).max(7).optional().meta({ description: "Default every day." }),
      timezone: text(64).default("user").meta({
        description:
          "`user`: the user's `timezone`, else the project's `timezone` (default UTC); or an IANA zone. An invalid zone falls back the same way; the path records the zone used.",
      }),
    })
    .optional(),
});

const wait = z.strictObject({
  key,
  kind: z.literal("wait"),
  next,
  event: z
    .strictObject({
      name: text().min(1),
      condition: z.array(condition).max(10).optional().meta({ description: "All must hold on the event's data." }),
      same_as: z
        .string()
        .regex(/^[A-Za-z0-9_$-]{1,64}$/, "a top-level data key")
        .optional()
        .meta({
          description:
            "A data key whose value in the awaited event must equal the entering event's value there (`cart_id`: this cart's order, not another's).",
        }),
    })
    .optional(),
  list: z
    .strictObject({ list_id: z.uuid(), in: z.boolean().default(true) })
    .optional()
    .meta({ description: "Waits until the user is in the list (`in: true`) or out of it (`in: false`)." }),
  timeout: duration.optional(),
  timeout_next: key.optional().meta({ description: "Where a timed-out entry goes; default it exits." }),
});

const branch = z.strictObject({
  key,
  kind: z.literal("branch"),
  rule: rule.meta({ description: "The list rule language, evaluated when the entry reaches the step." }),
  next,
  else_next: key
    .optional()
    .meta({ description: "Where the entry goes when the rule does not hold; default it exits." }),
});

const split = z.strictObject({
  key,
  kind: z.literal("split"),
  paths: z
    .array(z.strictObject({ weight: z.number().int().min(1).max(10_000), next: key }))
    .min(2)
    .max(10)
    .meta({ description: "Chosen by the entry id, weighted: a retry takes the same path." }),
  test: z
    .strictObject({
      metric: z.enum(["conversion", "click", "open"]).meta({
        description:
          "What a path's entries must do after the split: convert (the journey's `goal`, required), click a link or open a message of the journey.",
      }),
      min_per_path: z.number().int().min(100).max(1_000_000).default(500).meta({
        description: "Entries every path needs before the first look; later looks at 2×, 4×, 8× and 16× that.",
      }),
      auto_winner: z.boolean().default(false).meta({
        description: "Once a winner is decided, entries reaching the split take the winner's path.",
      }),
    })
    .optional()
    .meta({
      description:
        "An A/B test of the paths: the journey report gives each path's rate with a 95 % interval and its chance to beat the others, and decides a winner at fixed looks (docs/reports.md).",
    }),
});

/** A split step as the engine walks it: with its test's winner, once decided and `auto_winner` (due-entries.ts). */
export type SplitInHand = z.output<typeof split> & { winner?: number };

const send = z.strictObject({ key, kind: z.literal("send"), next, template_id: z.uuid() });
const update = z.strictObject({
  key,
  kind: z.literal("update"),
  next,
  data: dataObject().meta({ description: "Merged into the user's data as an upsert does (shallow)." }),
});
const exit = z.strictObject({ key, kind: z.literal("exit") });

export const stepInput = z
  .discriminatedUnion("kind", [delay, wait, branch, split, send, update, exit])
  .meta({ id: "JourneyStep" });
export type Step = z.output<typeof stepInput>;
export const stepsInput = z.array(stepInput).max(MAX_STEPS);
