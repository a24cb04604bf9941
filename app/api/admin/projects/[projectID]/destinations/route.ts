import { createDestination } from "@/lib/destinations/create-destination";
import { listDestinations } from "@/lib/destinations/list-destinations";
import { createDestinationBody, listDestinationsQuery } from "@/lib/destinations/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject(
  "destinations.read",
  async (req, ctx) => json(await listDestinations(ctx, readQuery(req, listDestinationsQuery))),
  { sessions: true },
);

export const POST = withProject(
  "destinations.write",
  async (req, ctx) => json(await createDestination(ctx, await readJson(req, createDestinationBody)), 201),
  { sessions: true },
);
