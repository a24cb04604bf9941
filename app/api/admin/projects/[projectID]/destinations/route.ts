import { createDestination } from "@/lib/destinations/create-destination";
import { listDestinations } from "@/lib/destinations/list-destinations";
import { createDestinationBody, listDestinationsQuery } from "@/lib/destinations/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute("destinations.read", (req, ctx) =>
  listDestinations(ctx, readQuery(req, listDestinationsQuery)),
);

export const POST = adminRoute("destinations.write", { status: 201 }, async (req, ctx) =>
  createDestination(ctx, await readJson(req, createDestinationBody)),
);
