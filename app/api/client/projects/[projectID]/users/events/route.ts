import { acceptEventsHandler, eventsForBrowser } from "@/lib/events/events-route";
import { userEventBatch } from "@/lib/events/schemas";
import { preflight } from "@/lib/http/cors";
import { withProject } from "@/lib/http/with-project";

export const POST = withProject("events.write", acceptEventsHandler("user", userEventBatch), eventsForBrowser);

/** CORS preflight for the browser SDK; the real request is checked against the key's allowed origins. */
export const OPTIONS = preflight;
