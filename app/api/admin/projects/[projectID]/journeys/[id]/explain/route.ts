import { explainJourney } from "@/lib/explain/explain-journey";
import { explainQuery } from "@/lib/explain/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute<{ projectID: string; id: string }>("journeys.read", (req, ctx, p) =>
  explainJourney(ctx, {
    journeyId: readRecordId(p.id, "journey"),
    userId: readQuery(req, explainQuery).user_id,
  }),
);
