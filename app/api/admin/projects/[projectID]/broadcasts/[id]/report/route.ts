import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { broadcastReport } from "@/lib/reports/broadcast-report";
import { reportQuery } from "@/lib/reports/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (req, ctx, p) =>
  broadcastReport(ctx, { id: readRecordId(p.id, "broadcast"), ...readQuery(req, reportQuery) }),
);
