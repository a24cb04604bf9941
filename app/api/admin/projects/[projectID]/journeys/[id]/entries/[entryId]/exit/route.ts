import { readRecordId } from "@/lib/http/record-id";
import { noContent, withProject } from "@/lib/http/with-project";
import { exitJourneyEntry } from "@/lib/journeys/exit-entry";

type Params = { projectID: string; id: string; entryId: string };

export const POST = withProject<Params>(
  "journeys.write",
  async (_req, ctx, p) => {
    await exitJourneyEntry(ctx, {
      journeyId: readRecordId(p.id, "journey"),
      entryId: readRecordId(p.entryId, "entry"),
    });
    return noContent();
  },
  { sessions: true },
);
