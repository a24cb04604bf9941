import { deleteDestination } from "@/lib/destinations/delete-destination";
import { getDestination } from "@/lib/destinations/get-destination";
import { updateDestinationBody } from "@/lib/destinations/schemas";
import { updateDestination } from "@/lib/destinations/update-destination";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "destinations.read",
  async (_req, ctx, p) => json(await getDestination(ctx, readRecordId(p.id, "destination"))),
  { sessions: true },
);

export const PATCH = withProject<Params>(
  "destinations.write",
  async (req, ctx, p) =>
    json(
      await updateDestination(ctx, {
        id: readRecordId(p.id, "destination"),
        patch: await readJson(req, updateDestinationBody),
      }),
    ),
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "destinations.write",
  async (_req, ctx, p) => {
    await deleteDestination(ctx, readRecordId(p.id, "destination"));
    return noContent();
  },
  { sessions: true },
);
