import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteJourney } from "@/lib/journeys/delete-journey";
import { getJourney } from "@/lib/journeys/get-journey";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>("journeys.read", async (_req, ctx, p) => json(await getJourney(ctx.db, ctx.projectId, readRecordId(p.id, "journey"))), { sessions: true });

export const DELETE = withProject<Params>(
  "journeys.write",
  async (_req, ctx, p) => {
    await deleteJourney(ctx.db, ctx.projectId, readRecordId(p.id, "journey"));
    return noContent();
  },
  { sessions: true },
);
