import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";
import { listEntriesQuery, listJourneyEntries } from "@/lib/journeys/list-entries";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "journeys.read",
  async (req, ctx, p) =>
    json(
      await listJourneyEntries(ctx, {
        journeyId: readRecordId(p.id, "journey"),
        query: readQuery(req, listEntriesQuery),
      }),
    ),
  { sessions: true },
);
