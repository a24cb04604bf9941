import { z } from "zod";
import { dataObject, text } from "@/lib/http/json-value";
import { identifierList } from "@/lib/identity/schemas";
import { isSystemEventName, SYSTEM_EVENT_PREFIXES } from "./system-events";

export const MAX_EVENTS = 1000;

const eventName = text()
  .min(1)
  .refine(
    (n) => !isSystemEventName(n),
    `system event names (${SYSTEM_EVENT_PREFIXES.join(", ")} prefixes) are reserved`,
  )
  .meta({ description: "Case-sensitive; no registration. Names under the system prefixes are refused." });

const matchFilter = dataObject("match")
  .refine((m) => Object.keys(m).length > 0, "match needs at least one key")
  .meta({
    description: "Containment filter: every user (organization) whose `data` contains these pairs gets its own event.",
  });

const common = {
  name: eventName,
  identifier: identifierList.optional(),
  match: matchFilter.optional(),
  timestamp: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: "When it happened (ISO 8601). Default: time of receipt." }),
  id: text(256)
    .min(1)
    .optional()
    .meta({ description: "Client event id: a repeat within 7 days in this project is acknowledged and ignored." }),
};

/** Exactly one of identifier and match (spec 2.5 rules 1-2; server calls have no context to infer a user from). */
function oneTarget(v: { identifier?: unknown; match?: unknown }, ctx: z.RefinementCtx) {
  if (v.identifier !== undefined && v.match !== undefined) {
    ctx.addIssue({ code: "custom", path: ["match"], message: "identifier and match are mutually exclusive" });
  } else if (v.identifier === undefined && v.match === undefined) {
    ctx.addIssue({ code: "custom", path: ["identifier"], message: "one of identifier or match is required" });
  }
}

export const userEventInput = z
  .strictObject({ ...common, data: dataObject().meta({ description: "Required for user events." }) })
  .superRefine(oneTarget)
  .meta({ id: "UserEventInput" });

export const organizationEventInput = z
  .strictObject({ ...common, data: dataObject().optional() })
  .superRefine(oneTarget)
  .meta({ id: "OrganizationEventInput" });

export const userEventBatch = z.array(userEventInput).min(1).max(MAX_EVENTS).meta({ id: "UserEventBatch" });
export const organizationEventBatch = z
  .array(organizationEventInput)
  .min(1)
  .max(MAX_EVENTS)
  .meta({ id: "OrganizationEventBatch" });

export type EventInput = z.output<typeof userEventInput> | z.output<typeof organizationEventInput>;

export const acceptedOutput = z
  .object({
    accepted: z.number().int().meta({ description: "Events acknowledged, repeats of a client `id` included." }),
    duplicates: z
      .number()
      .int()
      .meta({ description: "Of those, repeats of a client `id` seen in the last 7 days, ignored." }),
  })
  .meta({ id: "EventsAccepted" });
