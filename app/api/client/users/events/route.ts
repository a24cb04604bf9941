import { lunogramUserEventBatch } from "@/lib/lunogram/shapes";
import { acceptEventsHandler, eventsForBrowser } from "@/lib/events/events-route";
import { preflight } from "@/lib/http/cors";
import { withProject } from "@/lib/http/with-project";

// The project path's handler with the project taken from the API key (what the Lunogram SDKs and the
// browser SDK call); identifiers may carry the response-only fields the Lunogram Python SDK sends.
export const POST = withProject("events.write", acceptEventsHandler("user", lunogramUserEventBatch), eventsForBrowser);

/** CORS preflight for the browser SDK; the real request is checked against the key's allowed origins. */
export const OPTIONS = preflight;
