import { rotateSecret } from "@/lib/destinations/rotate-secret";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const POST = withProject<Params>(
  "destinations.write",
  async (_req, ctx, p) => json(await rotateSecret(ctx, readRecordId(p.id, "destination"))),
  { sessions: true },
);
