import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteJourney } from "@/lib/journeys/delete-journey";
import { getJourney } from "@/lib/journeys/get-journey";
import { journeyPatch } from "@/lib/journeys/schemas";
import { updateJourney } from "@/lib/journeys/update-journey";
import { readJson } from "@/lib/http/read-json";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("journeys.read", (_req, ctx, p) =>
  getJourney(ctx, readRecordId(p.id, "journey")),
);

export const DELETE = adminRoute<Params>("journeys.write", { status: 204 }, (_req, ctx, p) =>
  deleteJourney(ctx, readRecordId(p.id, "journey")),
);

export const PATCH = adminRoute<Params>("journeys.write", async (req, ctx, p) =>
  updateJourney(ctx, { id: readRecordId(p.id, "journey"), patch: await readJson(req, journeyPatch) }),
);
