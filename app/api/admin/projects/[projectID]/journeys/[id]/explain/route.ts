import { explainJourney } from "@/lib/explain/explain-journey";
import { explainQuery } from "@/lib/explain/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject<{ projectID: string; id: string }>(
  "journeys.read",
  async (req, ctx, p) =>
    json(
      await explainJourney(ctx, {
        journeyId: readRecordId(p.id, "journey"),
        userId: readQuery(req, explainQuery).user_id,
      }),
    ),
  { sessions: true },
);
