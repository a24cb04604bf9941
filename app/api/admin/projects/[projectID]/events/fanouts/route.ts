import { listFanouts, listFanoutsQuery } from "@/lib/events/list-fanouts";
import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute("events.read", (req, ctx) => listFanouts(ctx, readQuery(req, listFanoutsQuery)));
