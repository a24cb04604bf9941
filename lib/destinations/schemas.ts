import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { dataObject } from "@/lib/http/json-value";

export const MAX_DESTINATION_EVENTS = 50;

const eventPattern = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .regex(
    /^(\*|[^*]+\.\*|[^*]+)$/,
    "an exact event name, `*`, or a prefix ending in `.*` (like `list.*`); `*` nowhere else",
  );

const url = z.string().trim().max(2048).meta({
  description:
    "Where messages are POSTed: `https`, or `http` to a host listed in DESTINATIONS_ALLOW_HOSTS. Private, loopback and link-local addresses are refused unless listed, here and when connecting.",
});

const fields = {
  name: z.string().trim().min(1).max(100),
  url,
  events: z
    .array(eventPattern)
    .min(1)
    .max(MAX_DESTINATION_EVENTS)
    .transform((list) => [...new Set(list)])
    .meta({ description: "Event names and patterns: `Order Completed`, `*`, `list.*`, `scheduled.*`, `journey.*`." }),
  filter: dataObject("filter").nullable().meta({
    description: "Only events whose `data` contains these pairs (containment, as `match` works). `null`: all.",
  }),
  enabled: z.boolean(),
};

export const createDestinationBody = z
  .strictObject({ ...fields, filter: fields.filter.optional(), enabled: fields.enabled.default(true) })
  .meta({ id: "CreateDestination" });

export const updateDestinationBody = z
  .strictObject({
    name: fields.name.optional(),
    url: fields.url.optional(),
    events: fields.events.optional(),
    filter: fields.filter.optional(),
    enabled: fields.enabled.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "send at least one field to change")
  .meta({ id: "UpdateDestination", description: "The fields to change; what is omitted is kept." });

export const destinationHealth = z
  .object({
    attempts_24h: z.number().int().meta({ description: "Attempts in the last 24 h, counted up to 10,000." }),
    success_rate_24h: z.number().nullable().meta({
      description: "Share of the counted attempts (the newest 10,000 of 24 h) answered 2xx; null without attempts.",
    }),
    last_error: z.string().nullable(),
    last_error_at: z.iso.datetime().nullable(),
    backlog: z
      .number()
      .int()
      .meta({ description: "Messages waiting to be delivered (pending), counted up to 10,000." }),
  })
  .meta({ id: "DestinationHealth" });

export const destinationOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    url: z.string().meta({
      description:
        "The URL, in full only in the answer to create; after that its origin and first path segment, the rest (and any query) shown as `…`, since webhook URLs often carry their secret there.",
    }),
    events: z.array(z.string()),
    filter: z.record(z.string(), z.unknown()).nullable(),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: "Why Relay turned it off (410 Gone, failing for days)." }),
    failing_since: z.iso.datetime().nullable(),
    secret_rotating_until: z.iso
      .datetime()
      .nullable()
      .meta({ description: "During a rotation, until when the previous secret still signs too." }),
    health: destinationHealth,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Destination" });

export const createdDestinationOutput = destinationOutput
  .extend({ secret: z.string().meta({ description: "The signing secret (`whsec_…`). Shown this once." }) })
  .meta({ id: "CreatedDestination" });

export const rotatedSecretOutput = z
  .object({
    secret: z.string().meta({ description: "The new signing secret, shown this once." }),
    previous_secret_until: z.iso.datetime().meta({ description: "The old secret signs too until then (24 h)." }),
  })
  .meta({ id: "RotatedDestinationSecret" });

export const deliveryStates = ["pending", "delivered", "failed"] as const;

export const attemptOutput = z
  .object({
    attempted_at: z.iso.datetime(),
    status: z.number().int().nullable().meta({ description: "The HTTP status; null when nothing answered." }),
    latency_ms: z.number().int(),
    response: z
      .string()
      .nullable()
      .meta({ description: "The answer's first 1 KiB (in the delivery log's pages, its first 256 characters)." }),
    error: z.string().nullable(),
  })
  .meta({ id: "DeliveryAttempt" });

export const deliveryOutput = z
  .object({
    id: z.uuid(),
    webhook_id: z.string().meta({ description: "The `webhook-id` header of every attempt of this message." }),
    destination_id: z.uuid(),
    event_id: z.uuid().nullable(),
    event_name: z.string(),
    user_id: z.uuid().nullable(),
    state: z.enum(deliveryStates),
    attempts: z
      .array(attemptOutput)
      .meta({ description: "The newest attempts, oldest first: up to 20 (5 in the delivery log's pages)." }),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Delivery" });

export const listDestinationsQuery = paginationQuery.meta({ id: "ListDestinationsQuery" });

/** A page of the delivery log holds at most this many messages (each with its newest attempts). */
export const MAX_DELIVERIES_PAGE = 50;

export const listDeliveriesQuery = paginationQuery
  .extend({
    limit: z.coerce.number().int().min(1).max(MAX_DELIVERIES_PAGE).default(MAX_DELIVERIES_PAGE),
    state: z.enum(deliveryStates).optional(),
  })
  .meta({ id: "ListDeliveriesQuery" });

/** Replays are bounded: a window of at most 7 days and at most MAX_REPLAY messages. */
export const MAX_REPLAY = 10_000;
export const MAX_REPLAY_DAYS = 7;

export const replayBody = z
  .strictObject({ since: z.iso.datetime({ offset: true }), until: z.iso.datetime({ offset: true }).optional() })
  .refine((b) => !b.until || Date.parse(b.until) > Date.parse(b.since), {
    path: ["until"],
    message: "must be after since",
  })
  .refine((b) => (b.until ? Date.parse(b.until) : Date.now()) - Date.parse(b.since) <= MAX_REPLAY_DAYS * 86_400_000, {
    path: ["since"],
    message: `the window is at most ${MAX_REPLAY_DAYS} days`,
  })
  .meta({
    id: "ReplayDeliveries",
    description: `Re-sends the events recorded in [since, until) (default until: now) that the destination subscribes to, as new messages. At most ${MAX_REPLAY_DAYS} days and ${MAX_REPLAY} messages.`,
  });

export const replayOutput = z.object({ queued: z.number().int() }).meta({ id: "ReplayResult" });

export type DestinationView = z.infer<typeof destinationOutput>;
export type DeliveryView = z.infer<typeof deliveryOutput>;
