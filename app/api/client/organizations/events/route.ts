import { lunogramOrganizationEventBatch } from "@/lib/lunogram/shapes";
import { acceptEventsHandler } from "@/lib/events/events-route";
import { withProject } from "@/lib/http/with-project";

// The project path's handler with the project taken from the API key; identifiers may carry the
// response-only fields the Lunogram Python SDK sends (lib/lunogram/shapes.ts).
export const POST = withProject("events.write", acceptEventsHandler("organization", lunogramOrganizationEventBatch));
