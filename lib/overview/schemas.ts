import { z } from "zod";

const eventBucket = z.object({
  at: z.iso.datetime(),
  client: z.number().int(),
  system: z.number().int(),
  scheduled: z.number().int(),
});

export const overviewOutput = z
  .object({
    events_per_minute: z.array(eventBucket).meta({
      description: "The last 60 minutes (oldest first), by receipt time: client, system and scheduled events recorded.",
    }),
    events_per_hour: z.array(eventBucket).meta({ description: "The last 7 days by hour (168 buckets, oldest first)." }),
    requests_per_hour: z
      .array(z.object({ at: z.iso.datetime(), accepted: z.number().int(), rejected: z.number().int() }))
      .meta({
        description: "API-key requests over the last 24 hours by hour: accepted (status below 400) and rejected.",
      }),
    intake: z
      .object({
        backlog: z
          .number()
          .int()
          .meta({ description: "Accepted events waiting for the worker, counted up to 100,000." }),
        backlog_capped: z.boolean().meta({ description: "The backlog is at least `backlog`." }),
        failed: z.number().int().meta({ description: "Rows set aside as poison (counted up to 10,000)." }),
        lag_seconds: z.number().nullable().meta({
          description: "Age of the oldest waiting event: how far the pipeline is behind. Null when nothing waits.",
        }),
      })
      .meta({ id: "IntakeState" }),
    firings_next_24h: z
      .number()
      .int()
      .meta({ description: "Pending schedule firings due in the next 24 hours (counted up to 100,000)." }),
    biggest_lists: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        kind: z.enum(["dynamic", "static"]),
        member_count: z.number().int().meta({ description: "Counted up to 10,000." }),
        member_count_capped: z.boolean().meta({ description: "More than 10,000 members." }),
      }),
    ),
    messages_per_hour: z
      .array(
        z.object({
          at: z.iso.datetime(),
          sent: z.number().int(),
          delivered: z.number().int(),
          bounced: z.number().int(),
          opened: z.number().int(),
          clicked: z.number().int(),
        }),
      )
      .meta({
        description:
          "The last 48 hours by hour (oldest first), from the report rollups: messages sent in the hour, and messages first delivered, bounced, opened by a person and clicked in it (each message once per kind, as in a report).",
      }),
    new_users_per_day: z
      .array(z.object({ day: z.string(), count: z.number().int() }))
      .meta({ description: "Users created per UTC day over the last 14 days." }),
  })
  .meta({ id: "ProjectOverview" });
export type Overview = z.infer<typeof overviewOutput>;
