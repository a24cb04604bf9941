import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { refuseMatchFromBrowser } from "@/lib/events/browser-rules";
import { preflight } from "@/lib/http/cors";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { metrics } from "@/lib/observability/metrics";
import { acceptEvents } from "./accept-events";
import type { EventInput } from "./schemas";

/**
 * `POST …/users/events` and `POST …/organizations/events` of the client API, each built once for its two
 * paths: `/api/client/projects/{projectID}/…` with our batch schema, and `/api/client/…` (the project taken
 * from the API key: what the Lunogram SDKs and the browser SDK call) with lib/lunogram/shapes.ts's, which
 * also takes the response-only fields the Lunogram Python SDK sends. A browser key may not aim an event by
 * `match`.
 */
export function userEventsRoutes(batch: z.ZodType<EventInput[]>) {
  return {
    // What a browser key sees of an accepted batch: the counts as they are (they say nothing about stored records).
    POST: withProject("events.write", acceptEventsHandler("user", batch), { browser: (body: unknown) => body }),
    /** CORS preflight for the browser SDK; the real request is checked against the key's allowed origins. */
    OPTIONS: preflight,
  };
}

/** `POST …/organizations/events`: as userEventsRoutes, for organizations (no browser key). */
export function organizationEventsRoutes(batch: z.ZodType<EventInput[]>) {
  return {
    POST: withProject("events.write", acceptEventsHandler("organization", batch)),
  };
}

function acceptEventsHandler(kind: "user" | "organization", schema: z.ZodType<EventInput[]>) {
  return async (req: Request, ctx: ProjectContext) => {
    const events = await readJson(req, schema);
    refuseMatchFromBrowser(ctx, events);
    const accepted = await acceptEvents(ctx, { kind, events });
    metrics.eventsAccepted.inc(accepted.accepted);
    return json(accepted, 202);
  };
}
