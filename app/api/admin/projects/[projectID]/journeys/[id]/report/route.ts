import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { journeyReport } from "@/lib/reports/journey-report";
import { reportQuery } from "@/lib/reports/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("journeys.read", (req, ctx, p) =>
  journeyReport(ctx, { id: readRecordId(p.id, "journey"), ...readQuery(req, reportQuery) }),
);
