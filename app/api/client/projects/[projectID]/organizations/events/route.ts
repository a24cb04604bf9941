import { acceptEventsHandler } from "@/lib/events/events-route";
import { organizationEventBatch } from "@/lib/events/schemas";
import { withProject } from "@/lib/http/with-project";

export const POST = withProject("events.write", acceptEventsHandler("organization", organizationEventBatch));
