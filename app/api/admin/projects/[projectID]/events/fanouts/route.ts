import { listFanouts, listFanoutsQuery } from "@/lib/events/list-fanouts";
import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject(
  "events.read",
  async (req, ctx) => json(await listFanouts(ctx, readQuery(req, listFanoutsQuery))),
  { sessions: true },
);
