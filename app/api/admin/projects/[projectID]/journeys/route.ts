import { readJson } from "@/lib/http/read-json";
import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { createJourney } from "@/lib/journeys/create-journey";
import { listJourneys, listJourneysQuery } from "@/lib/journeys/list-journeys";
import { journeyInput } from "@/lib/journeys/schemas";

export const GET = adminRoute("journeys.read", (req, ctx) => listJourneys(ctx, readQuery(req, listJourneysQuery)));

export const POST = adminRoute("journeys.write", { status: 201 }, async (req, ctx) =>
  createJourney(ctx, await readJson(req, journeyInput)),
);
