import { rotateSecret } from "@/lib/destinations/rotate-secret";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("destinations.write", (_req, ctx, p) =>
  rotateSecret(ctx, readRecordId(p.id, "destination")),
);
