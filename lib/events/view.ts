import { z } from "zod";
import type { EventRow } from "@/db/schema";

export const eventOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    user_id: z.uuid().nullable(),
    organization_id: z.uuid().nullable(),
    data: z.record(z.string(), z.unknown()),
    origin: z.enum(["system", "client"]),
    client_id: z.string().nullable(),
    timestamp: z.iso.datetime(),
    received_at: z.iso.datetime(),
  })
  .meta({ id: "Event" });

export function toEventView(e: EventRow): z.infer<typeof eventOutput> {
  return {
    id: e.id,
    name: e.name,
    user_id: e.userId,
    organization_id: e.organizationId,
    data: e.data,
    origin: e.origin,
    client_id: e.clientId,
    timestamp: e.occurredAt.toISOString(),
    received_at: e.receivedAt.toISOString(),
  };
}

export const eventListItem = eventOutput
  .extend({
    who: z
      .object({
        kind: z.enum(["user", "organization"]),
        id: z.uuid(),
        label: z.string().meta({ description: "First identifier, else e-mail, else the id." }),
      })
      .nullable()
      .meta({ description: "The record the event was recorded against, named for people." }),
  })
  .meta({ id: "EventListItem" });
