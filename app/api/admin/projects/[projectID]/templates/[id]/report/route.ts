import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { templateReport } from "@/lib/reports/template-report";
import { reportQuery } from "@/lib/reports/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (req, ctx, p) =>
  templateReport(ctx, { id: readRecordId(p.id, "template"), ...readQuery(req, reportQuery) }),
);
