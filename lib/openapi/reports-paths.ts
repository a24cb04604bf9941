import { z } from "zod";
import { broadcastReportOutput, journeyReportOutput, reportOutput, reportQuery } from "@/lib/reports/schemas";
import { projectParams, registerPath } from "./registry";
import { found } from "./responses";

const root = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });
const tags = ["Admin: reports"];
const funnel =
  "Counts and rates of sent, delivered, bounced, complained, opened (people, unique), opened by machines, clicked, unsubscribed and converted messages, the conversion value, and a series (hourly for the first 48 hours, then daily), read from rollups. Each count is of messages, never of fetches. Role `support` or above.";

registerPath({
  method: "get",
  path: `${root}/broadcasts/{id}/report`,
  permission: "messages.read",
  tags,
  summary: "What a broadcast's messages did",
  description: funnel,
  request: { params: idParams, query: reportQuery },
  responses: found(
    broadcastReportOutput,
    "The broadcast's report, with its A/B test's variants side by side.",
    "No such broadcast.",
  ),
});
registerPath({
  method: "get",
  path: `${root}/templates/{id}/report`,
  permission: "messages.read",
  tags,
  summary: "What a template's messages did (`since`/`until` bound the hours counted)",
  description: funnel,
  request: { params: idParams, query: reportQuery },
  responses: found(reportOutput, "The template's report.", "No such template."),
});
registerPath({
  method: "get",
  path: `${root}/journeys/{id}/report`,
  permission: "journeys.read",
  tags,
  summary:
    "A journey's report: per step entered, waiting and left; per send step its funnel; per split its paths and test",
  description: funnel,
  request: { params: idParams, query: reportQuery },
  responses: found(journeyReportOutput, "The journey's report.", "No such journey."),
});
