import { z } from "zod";
import { dataObject, text } from "@/lib/http/json-value";
import { MAX_EVENTS } from "@/lib/events/schemas";

/**
 * Segment's HTTP tracking API payloads (https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/).
 * Objects are loose: fields we do not map (`context`, `integrations`, `_metadata`, anything newer) are kept
 * and land in the event's `data.segment`, never a 400. The fields we map are bounded like our own bodies.
 */

/** Segment ids are strings; some clients send numbers, which Segment stringifies too. */
const segmentId = z.union([text().min(1), z.number().finite().transform(String)]);
const when = z.iso.datetime({ offset: true }).meta({ description: "ISO 8601; default the time of receipt." });
const nullableText = text().nullable().optional();

const common = {
  userId: segmentId.optional().meta({ description: "→ identifier `(default, userId)`." }),
  anonymousId: segmentId.optional().meta({ description: "→ identifier `(anonymous, anonymousId)`." }),
  messageId: text(256)
    .min(1)
    .optional()
    .meta({ description: "→ the event's client id: a repeat within 7 days is ignored." }),
  timestamp: when.optional(),
  context: dataObject("context").optional(),
  integrations: dataObject("integrations").optional(),
};

function someone(v: { userId?: string; anonymousId?: string }, ctx: z.RefinementCtx) {
  if (v.userId === undefined && v.anonymousId === undefined) {
    ctx.addIssue({ code: "custom", path: ["userId"], message: "userId or anonymousId is required" });
  }
}

const fields = {
  track: {
    event: text().min(1).meta({ description: "→ event name." }),
    properties: dataObject("properties").optional(),
  },
  identify: { traits: dataObject("traits").optional() },
  group: {
    groupId: segmentId.meta({ description: "→ organization identifier `(default, groupId)`." }),
    traits: dataObject("traits").optional(),
  },
  alias: {
    userId: segmentId,
    previousId: segmentId.meta({ description: "The earlier id (an anonymousId or a userId)." }),
  },
  page: { name: nullableText, category: nullableText, properties: dataObject("properties").optional() },
  screen: { name: nullableText, category: nullableText, properties: dataObject("properties").optional() },
};

export type SegmentType = keyof typeof fields;
export const SEGMENT_TYPES = Object.keys(fields) as SegmentType[];

/** One message of `type`; `typeRequired` false for `POST /v1/<type>`, whose path gives the type. */
function message<T extends SegmentType>(type: T, typeRequired: boolean) {
  const typeField = typeRequired ? z.literal(type) : z.literal(type).optional();
  return z.looseObject({ ...common, ...fields[type], type: typeField }).superRefine((v, ctx) => {
    if (type !== "alias") someone(v as { userId?: string; anonymousId?: string }, ctx);
  });
}

type Json = Record<string, unknown>;
interface Common {
  userId?: string;
  anonymousId?: string;
  messageId?: string;
  timestamp?: string;
  context?: Json;
  integrations?: Json;
  /** Unmapped fields, kept. */
  [field: string]: unknown;
}
/** A validated message (the output of the schemas above, written out: zod's loose-object output loses the named keys under Omit). */
export type SegmentMessage =
  | (Common & { type: "track"; event: string; properties?: Json })
  | (Common & { type: "identify"; traits?: Json })
  | (Common & { type: "group"; groupId: string; traits?: Json })
  | (Common & { type: "alias"; userId: string; previousId: string })
  | (Common & { type: "page" | "screen"; name?: string | null; category?: string | null; properties?: Json });

/** The body of `POST /v1/<type>`: the type comes from the path (a `type` field, if sent, must agree). */
export function segmentCall<T extends SegmentType>(type: T) {
  return message(type, false)
    .transform((m) => ({ ...m, type }) as unknown as Extract<SegmentMessage, { type: T }>)
    .meta({ id: `Segment${type[0]!.toUpperCase()}${type.slice(1)}` });
}

const batchItem = z.discriminatedUnion("type", [
  message("track", true),
  message("identify", true),
  message("group", true),
  message("alias", true),
  message("page", true),
  message("screen", true),
]);

/** `POST /v1/batch`: up to 1,000 messages of any type, applied in order. */
export const segmentBatch = z
  .looseObject({
    batch: z.array(batchItem).min(1).max(MAX_EVENTS),
    context: dataObject("context").optional().meta({ description: "Merged under each message's own context." }),
    integrations: dataObject("integrations").optional(),
  })
  .transform(({ batch, context, integrations }) =>
    (batch as unknown as SegmentMessage[]).map((m) => {
      const own = m as { context?: Record<string, unknown>; integrations?: Record<string, unknown> };
      return {
        ...m,
        ...(context || own.context ? { context: { ...context, ...own.context } } : {}),
        ...(integrations || own.integrations ? { integrations: { ...integrations, ...own.integrations } } : {}),
      } as SegmentMessage;
    }),
  )
  .meta({ id: "SegmentBatch" });

export const segmentOk = z.object({ success: z.literal(true) }).meta({ id: "SegmentSuccess" });
