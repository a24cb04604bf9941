import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { getJourneyEntry } from "@/lib/journeys/get-entry";
import { entryPathQuery } from "@/lib/journeys/schemas";

type Params = { projectID: string; id: string; entryId: string };

export const GET = adminRoute<Params>("journeys.read", (req, ctx, p) =>
  getJourneyEntry(ctx, {
    journeyId: readRecordId(p.id, "journey"),
    entryId: readRecordId(p.entryId, "entry"),
    ...readQuery(req, entryPathQuery),
  }),
);
