import { listEvents, listEventsQuery } from "@/lib/events/list-events";
import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject(
  "events.read",
  async (req, ctx) => json(await listEvents(ctx, readQuery(req, listEventsQuery))),
  { sessions: true },
);
