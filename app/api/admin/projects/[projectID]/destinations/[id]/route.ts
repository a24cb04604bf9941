import { deleteDestination } from "@/lib/destinations/delete-destination";
import { getDestination } from "@/lib/destinations/get-destination";
import { updateDestinationBody } from "@/lib/destinations/schemas";
import { updateDestination } from "@/lib/destinations/update-destination";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("destinations.read", (_req, ctx, p) =>
  getDestination(ctx, readRecordId(p.id, "destination")),
);

export const PATCH = adminRoute<Params>("destinations.write", async (req, ctx, p) =>
  updateDestination(ctx, {
    id: readRecordId(p.id, "destination"),
    patch: await readJson(req, updateDestinationBody),
  }),
);

export const DELETE = adminRoute<Params>("destinations.write", { status: 204 }, (_req, ctx, p) =>
  deleteDestination(ctx, readRecordId(p.id, "destination")),
);
