import { organizationEventsRoutes } from "@/lib/events/client-routes";
import { lunogramOrganizationEventBatch } from "@/lib/lunogram/shapes";

// The project path's routes with the project taken from the API key (what the Lunogram SDKs call); the
// bodies also tolerate the response-only fields the Lunogram Python SDK sends (lib/lunogram/shapes.ts).
export const { POST } = organizationEventsRoutes(lunogramOrganizationEventBatch);
