import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteJourney } from "@/lib/journeys/delete-journey";
import { getJourney } from "@/lib/journeys/get-journey";
import { journeyPatch } from "@/lib/journeys/schemas";
import { updateJourney } from "@/lib/journeys/update-journey";
import { readJson } from "@/lib/http/read-json";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "journeys.read",
  async (_req, ctx, p) => json(await getJourney(ctx, readRecordId(p.id, "journey"))),
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "journeys.write",
  async (_req, ctx, p) => {
    await deleteJourney(ctx, readRecordId(p.id, "journey"));
    return noContent();
  },
  { sessions: true },
);

export const PATCH = withProject<Params>(
  "journeys.write",
  async (req, ctx, p) =>
    json(await updateJourney(ctx, { id: readRecordId(p.id, "journey"), patch: await readJson(req, journeyPatch) })),
  { sessions: true },
);
