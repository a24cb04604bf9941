import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { listEntriesQuery, listJourneyEntries } from "@/lib/journeys/list-entries";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("journeys.read", (req, ctx, p) =>
  listJourneyEntries(ctx, {
    journeyId: readRecordId(p.id, "journey"),
    query: readQuery(req, listEntriesQuery),
  }),
);
