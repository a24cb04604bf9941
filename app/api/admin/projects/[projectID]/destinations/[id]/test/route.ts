import { testDestination } from "@/lib/destinations/test-destination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("destinations.write", (_req, ctx, p) =>
  testDestination(ctx, readRecordId(p.id, "destination")),
);
