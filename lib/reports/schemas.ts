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

export const journeyReportOutput = reportOutput
  .extend({
    steps: z.array(
      z.object({
        key: z.string(),
        kind: z.string(),
        entered: z.number().int(),
        waiting: z.number().int(),
        waiting_capped: z.boolean(),
        left: z.number().int(),
        report: reportOutput.optional().meta({ description: "A send step's own funnel." }),
      }),
    ),
  })
  .meta({ id: "JourneyReport" });

export type Funnel = z.infer<typeof funnel>;
export type Report = z.infer<typeof reportOutput>;
export type JourneyReport = z.infer<typeof journeyReportOutput>;

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
