import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { refuseMatchFromBrowser } from "@/lib/events/browser-rules";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/with-project";
import { metrics } from "@/lib/observability/metrics";
import { acceptEvents } from "./accept-events";
import type { EventInput } from "./schemas";

/**
 * The one handler behind `POST …/users/events` and `POST …/organizations/events`, on the project path and
 * on the key path (whose schema also takes the response-only fields the Lunogram Python SDK sends); each
 * route wraps it in `withProject("events.write", …)`. A browser key may not aim an event by `match`.
 */
export function acceptEventsHandler(kind: "user" | "organization", schema: z.ZodType<EventInput[]>) {
  return async (req: Request, ctx: ProjectContext) => {
    const events = await readJson(req, schema);
    refuseMatchFromBrowser(ctx, events);
    const accepted = await acceptEvents(ctx, { kind, events });
    metrics.eventsAccepted.inc(accepted.accepted);
    return json(accepted, 202);
  };
}

/** What a browser key sees of an accepted batch: the counts as they are (they say nothing about stored records). */
export const eventsForBrowser = { browser: (body: unknown) => body };
