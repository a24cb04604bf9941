import { adminRoute } from "@/lib/http/with-project";
import { getOverview } from "@/lib/overview/get-overview";

export const GET = adminRoute("project.read", (_req, ctx) => getOverview(ctx));
