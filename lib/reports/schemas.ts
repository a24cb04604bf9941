import { z } from "zod";
import { condition } from "@/lib/lists/rule-schema";
import { REPORT_METRICS } from "./metrics";

export { REPORT_METRICS };

export const reportQuery = z.strictObject({
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
});

const figure = z
  .object({
    count: z.number().int(),
    rate: z.number().meta({ description: "Of `rate_base` (sent for sent, delivered, bounced and complained)." }),
  })
  .meta({ id: "ReportFigure" });

const funnelShape = Object.fromEntries(REPORT_METRICS.map((m) => [m, figure])) as Record<
  (typeof REPORT_METRICS)[number],
  typeof figure
>;

export const funnel = z
  .object({
    ...funnelShape,
    conversion_value: z.number(),
    rate_base: z.enum(["delivered", "sent"]).meta({
      description: "What engagement rates divide by: delivered once delivery reports exist, else sent.",
    }),
  })
  .meta({ id: "ReportFunnel" });

const seriesPoint = z
  .object({
    at: z.string(),
    unit: z.enum(["hour", "day"]),
    ...Object.fromEntries(REPORT_METRICS.map((m) => [m, z.number().int()])),
  })
  .meta({ id: "ReportPoint" });

export const reportOutput = z
  .object({
    funnel,
    series: z.array(seriesPoint).meta({ description: "Hourly for the first 48 hours, then daily." }),
  })
  .meta({ id: "Report" });

export type Funnel = z.infer<typeof funnel>;
export type Report = z.infer<typeof reportOutput>;

/** A broadcast's or journey's conversion goal. */
export const goalSchema = z
  .strictObject({
    event: z.string().trim().min(1).max(200),
    condition: z.array(condition).max(10).optional().meta({ description: "All must hold on the event's data." }),
    within: z
      .string()
      .regex(/^[1-9][0-9]{0,3} (minute|hour|day|week)s?$/, 'like "3 days" or "12 hours"')
      .meta({ description: "How long after a message its goal event still counts." }),
    value_path: z
      .string()
      .regex(/^data(\.[A-Za-z0-9_$-]{1,100}){1,10}$/, 'like "data.total"')
      .optional()
      .meta({
        description: "Where the event carries the conversion's value (a number); summed as `conversion_value`.",
      }),
  })
  .meta({
    id: "Goal",
    description:
      "A conversion is the user's first `event` within `within` after a message of this broadcast or journey was sent, credited to the latest such message, once.",
  });

export type Goal = z.output<typeof goalSchema>;

const armVerdict = {
  rate: z.number().meta({ description: "Successes over entries (or sends)." }),
  interval: z.tuple([z.number(), z.number()]).meta({
    description:
      "The rate's 95 % interval: the Beta(1 + successes, 1 + failures) posterior's 2.5 % and 97.5 % quantiles.",
  }),
  chance_to_beat_others: z
    .number()
    .meta({ description: "The posterior probability that this arm's rate is the highest." }),
};

const testState = z.enum(["running", "winner", "no_winner"]).meta({
  description: "`winner`: decided at a look; `no_winner`: the last look passed without one; `running`: looks to come.",
});

/** A split test's verdict in the journey report. */
export const splitTestOutput = z
  .object({
    metric: z.enum(["conversion", "click", "open"]),
    counted: z.enum(["converted", "clicked", "opened"]).meta({ description: "The per-path count the test compares." }),
    min_per_path: z.number().int(),
    auto_winner: z.boolean(),
    paths: z.array(
      z.object({
        index: z.number().int(),
        entries: z.number().int().meta({ description: "Entries that took the path." }),
        successes: z
          .number()
          .int()
          .meta({ description: "Of them, those that did the metric after the split, once each." }),
        ...armVerdict,
      }),
    ),
    looks: z
      .number()
      .int()
      .meta({ description: "Looks taken (at most 5: when the smallest path reaches min_per_path, 2×, 4×, 8×, 16×)." }),
    next_look_at: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The smallest path's entries at the next look; null once decided." }),
    look_due_at: z.string().nullable().meta({
      description:
        "When the next look is taken: the smallest path reached its size, and its entries get the goal's window (or a day) to act.",
    }),
    threshold_per_look: z.number().meta({ description: "The chance a path needs at a look: 1 − 0.05 / (5 × paths)." }),
    winner: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The winning path's index, recorded once at a look; it never changes." }),
    winner_chance: z.number().nullable(),
    decided_at: z.string().nullable(),
    state: testState,
  })
  .meta({ id: "SplitTestVerdict" });

export const splitPathOutput = z
  .object({
    index: z.number().int(),
    next: z.string(),
    weight: z.number().int(),
    entered: z.number().int().meta({ description: "Entries that took the path (first passage each)." }),
    opened: z.number().int(),
    clicked: z.number().int(),
    converted: z.number().int(),
    report: reportOutput.meta({ description: "The funnel of the messages sent to its entries after the split." }),
  })
  .meta({ id: "SplitPathReport" });

export const journeyReportOutput = reportOutput
  .extend({
    goal: goalSchema.nullable(),
    steps: z.array(
      z.object({
        key: z.string(),
        kind: z.string(),
        entered: z.number().int(),
        waiting: z.number().int(),
        waiting_capped: z.boolean(),
        left: z.number().int(),
        report: reportOutput.optional().meta({ description: "A send step's own funnel." }),
        paths: z.array(splitPathOutput).optional().meta({ description: "A split's paths." }),
        test: splitTestOutput.nullable().optional().meta({ description: "A split's test; null without one." }),
      }),
    ),
  })
  .meta({ id: "JourneyReport" });

/** A broadcast's A/B test in its report: the variants side by side, and the winner once decided. */
export const broadcastTestOutput = z
  .object({
    fraction: z.number(),
    metric: z.enum(["conversion", "click", "open"]),
    decide_after: z.string(),
    decides_at: z
      .string()
      .nullable()
      .meta({ description: "When the rest gets the winner: the start plus decide_after." }),
    variants: z.array(
      z.object({
        index: z.number().int(),
        template_id: z.uuid(),
        template_name: z.string().nullable().meta({ description: "null once the template is deleted." }),
        weight: z.number().int(),
        sent: z.number().int().meta({ description: "The variant's test recipients sent to: the denominator." }),
        successes: z.number().int(),
        ...armVerdict,
        report: reportOutput,
      }),
    ),
    winner: z
      .object({ index: z.number().int(), template_id: z.uuid(), chance: z.number(), decided_at: z.string() })
      .nullable()
      .meta({
        description: "The best variant at decide_after (the highest chance to beat the others), recorded once.",
      }),
    rest: reportOutput.meta({ description: "The recipients outside the test fraction, sent the winner." }),
  })
  .meta({ id: "BroadcastTestReport" });

export const broadcastReportOutput = reportOutput
  .extend({ test: broadcastTestOutput.nullable() })
  .meta({ id: "BroadcastReport" });

export const testMetric = z.enum(["conversion", "click", "open"]);
export type BroadcastReport = z.infer<typeof broadcastReportOutput>;
export type JourneyReport = z.infer<typeof journeyReportOutput>;
