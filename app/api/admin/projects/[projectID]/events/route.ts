import { listEvents, listEventsQuery } from "@/lib/events/list-events";
import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute("events.read", (req, ctx) => listEvents(ctx, readQuery(req, listEventsQuery)));
