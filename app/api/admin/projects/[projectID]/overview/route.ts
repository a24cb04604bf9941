import { json, withProject } from "@/lib/http/with-project";
import { getOverview } from "@/lib/overview/get-overview";

export const GET = withProject("project.read", async (_req, ctx) => json(await getOverview(ctx)), { sessions: true });
