import { organizationEventsRoutes } from "@/lib/events/client-routes";
import { organizationEventBatch } from "@/lib/events/schemas";

export const { POST } = organizationEventsRoutes(organizationEventBatch);
