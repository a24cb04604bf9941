import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { listRequests } from "@/lib/request-log/list-requests";
import { requestLogQuery } from "@/lib/request-log/schemas";

export const GET = adminRoute("requests.read", (req, ctx) => listRequests(ctx, readQuery(req, requestLogQuery)));
