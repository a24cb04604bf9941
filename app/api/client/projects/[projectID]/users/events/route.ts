import { userEventsRoutes } from "@/lib/events/client-routes";
import { userEventBatch } from "@/lib/events/schemas";

export const { POST, OPTIONS } = userEventsRoutes(userEventBatch);
