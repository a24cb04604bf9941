import { readJson } from "@/lib/http/read-json";
import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { createJourney } from "@/lib/journeys/create-journey";
import { listJourneys, listJourneysQuery } from "@/lib/journeys/list-journeys";
import { journeyInput } from "@/lib/journeys/schemas";

export const GET = withProject(
  "journeys.read",
  async (req, ctx) => json(await listJourneys(ctx, readQuery(req, listJourneysQuery))),
  { sessions: true },
);

export const POST = withProject(
  "journeys.write",
  async (req, ctx) => json(await createJourney(ctx, await readJson(req, journeyInput)), 201),
  { sessions: true },
);
