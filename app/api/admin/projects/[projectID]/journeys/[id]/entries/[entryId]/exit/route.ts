import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { exitJourneyEntry } from "@/lib/journeys/exit-entry";

type Params = { projectID: string; id: string; entryId: string };

export const POST = adminRoute<Params>("journeys.write", { status: 204 }, (_req, ctx, p) =>
  exitJourneyEntry(ctx, {
    journeyId: readRecordId(p.id, "journey"),
    entryId: readRecordId(p.entryId, "entry"),
  }),
);
