import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { listRequests } from "@/lib/request-log/list-requests";
import { requestLogQuery } from "@/lib/request-log/schemas";

export const GET = withProject(
  "requests.read",
  async (req, ctx) => json(await listRequests(ctx, readQuery(req, requestLogQuery))),
  { sessions: true },
);
