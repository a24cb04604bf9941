import { z } from "zod";
import { journeyOutput, journeyPatch } from "@/lib/journeys/schemas";
import { listHistoryQuery } from "@/lib/lists/list-history";
import { listHistoryOutput, listPreviewInput, listPreviewOutput } from "@/lib/lists/schemas";
import { overviewOutput } from "@/lib/overview/schemas";
import { loggedRequestOutput, requestLogQuery } from "@/lib/request-log/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { found, ok } from "./responses";

const base = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });

registerPath({
  method: "get",
  path: `${base}/overview`,
  permission: "project.read",
  tags: ["Admin: overview"],
  summary: "The project at a glance",
  description:
    "Events per minute (last hour) and per hour (last 7 days) by origin, accepted and rejected API requests per hour (24 h), the intake backlog and pipeline lag, " +
    "schedule firings due in the next 24 h, the 5 biggest lists and new users per day. Counters come from `project_rollups` (maintained by the pipeline and the request log), " +
    "so the answer never scans `events`; events appear once the worker has recorded them. Role `support` or above; a console session works too.",
  request: { params: projectParams },
  responses: ok(overviewOutput, "The overview."),
});
registerPath({
  method: "get",
  path: `${base}/requests`,
  permission: "requests.read",
  tags: ["Admin: request log"],
  summary: "The API request log",
  description:
    "Requests made with the project's API keys, newest first: the last 1,000 per key, kept 7 days. Failed requests keep the problem's `errors[]` and their body " +
    "(secret-named fields and API keys redacted, at most 4 KiB; rate-limited requests are counted, not listed). Written in batches about a second after the request. Role `admin` (it holds request bodies); a console session works too.",
  request: { params: projectParams, query: requestLogQuery },
  responses: ok(listOf(loggedRequestOutput, "LoggedRequestList"), "A page of requests."),
});
registerPath({
  method: "post",
  path: `${base}/lists/preview`,
  permission: "lists.write",
  tags: ["Admin: lists"],
  summary: "Preview a dynamic list's rules",
  description:
    "How many users match the rules now and 20 of them (newest first), without creating anything. A project of fewer than 20,000 users is counted exactly (1.2 s " +
    "budget). A larger one is estimated (`estimated` true) from a random sample of about 5,000 of its users, so the answer takes about as long at any project size; " +
    "its 20 users are the newest matching users of the sample. Past the budget (1.7 s for the estimate) the answer is a 503 problem saying so. Role `editor` or above.",
  request: { params: projectParams, body: jsonBody(listPreviewInput) },
  responses: ok(listPreviewOutput, "The preview."),
});
registerPath({
  method: "get",
  path: `${base}/lists/{id}/history`,
  permission: "lists.read",
  tags: ["Admin: lists"],
  summary: "A list's entries and exits (newest first)",
  description:
    "The list's `list.user.added` and `list.user.removed` events. Role `support` or above; a console session works too.",
  request: { params: idParams, query: listHistoryQuery },
  responses: found(listOf(listHistoryOutput, "ListHistory"), "A page of changes.", "No such list."),
});
registerPath({
  method: "patch",
  path: `${base}/journeys/{id}`,
  permission: "journeys.write",
  tags: ["Admin: journeys"],
  summary: "Change a journey's settings, entrances, steps or pause",
  description:
    "Settings given are changed. `entrances`, when given, replaces the journey's entrances: those carrying an existing `id` are updated in place (entries keep pointing at them), " +
    "those without are added, the rest are removed. Entries already made are kept. " +
    "`steps`, when given, replaces the steps, matched by `key`: entries at a removed step move on to its `next` at once (or exit), recorded in their path; a changed delay applies to entries reaching it afterwards. " +
    "`paused: true` holds every entry where it is; `false` releases the due ones. Role `editor` or above; a console session works too.",
  request: { params: idParams, body: jsonBody(journeyPatch) },
  responses: found(journeyOutput, "The journey.", "No such journey."),
});
