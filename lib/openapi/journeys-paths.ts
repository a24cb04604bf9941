import { z } from "zod";
import { listEntriesQuery } from "@/lib/journeys/list-entries";
import { listJourneysQuery } from "@/lib/journeys/list-journeys";
import {
  entryPathQuery,
  journeyEntryOutput,
  journeyEntryPathOutput,
  journeyInput,
  journeyOutput,
} from "@/lib/journeys/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const base = "/api/admin/projects/{projectID}/journeys";
const idParams = projectParams.extend({ id: z.uuid() });
const missing = "No such journey.";

registerPath({
  method: "get",
  path: base,
  permission: "journeys.read",
  tags: ["Admin: journeys"],
  summary: "List journeys (newest first)",
  description: "List journeys (newest first). Role `support` or above; a console session works too.",
  request: { params: projectParams, query: listJourneysQuery },
  responses: ok(listOf(journeyOutput, "JourneyList"), "A page of journeys."),
});
registerPath({
  method: "post",
  path: base,
  permission: "journeys.write",
  tags: ["Admin: journeys"],
  summary: "Create a journey with its entrances and steps",
  description:
    "Event entrances listen for an event name, with an optional condition on its data; for organization events every member enters, filtered by `user_rule` (a list rule). " +
    "Scheduled entrances name a schedule definition of this project and one of its offsets (else 404 naming the field): users enter when that offset's `scheduled.<name>` event fires. " +
    "The event's data becomes the entry's context, `journey.<data_key>.<property>`. Re-entry: `allow_multiple_entries` (enter again later) and `allow_concurrent_runs` (enter while an entry is active). " +
    "`steps` (0 to 100): `delay`, `wait` (an event, keyed by `same_as`, or a list), `branch`, `split`, `send`, `update`, `exit`, each with a `key`; entrances lead to the first step and each `next` defaults to the next step in the array. " +
    "A bad step is refused (400) naming it by path, like `steps[3].next`: an unknown key, a cycle with no delay or wait in it, a step no entry can reach, a `send` to a template of a channel the project cannot send on. Role `editor` or above.",
  request: { params: projectParams, body: jsonBody(journeyInput) },
  responses: {
    201: jsonResponse(journeyOutput, "Created."),
    400: errorResponse("A field or step is not valid; `errors[].path` names it (`steps[3].next`)."),
    404: errorResponse("A scheduled entrance names a schedule or offset this project does not have."),
  },
});
registerPath({
  method: "get",
  path: `${base}/{id}`,
  permission: "journeys.read",
  tags: ["Admin: journeys"],
  summary: "Read a journey",
  description: "Read a journey. Role `support` or above; a console session works too.",
  request: { params: idParams },
  responses: found(journeyOutput, "The journey.", missing),
});
registerPath({
  method: "delete",
  path: `${base}/{id}`,
  permission: "journeys.write",
  tags: ["Admin: journeys"],
  summary: "Delete a journey, its entrances and entries",
  description: "Delete a journey, its entrances and entries. Role `editor` or above; a console session works too.",
  request: { params: idParams },
  responses: gone("Deleted.", missing),
});
registerPath({
  method: "get",
  path: `${base}/{id}/entries`,
  permission: "journeys.read",
  tags: ["Admin: journeys"],
  summary: "List a journey's entries (newest first)",
  description:
    "Filter by `user_id`, `entrance_id`, `state`, or `step_key` (who is at that step now). Each entry has the triggering event id, its context, its step, state and `wake_at`.",
  request: { params: idParams, query: listEntriesQuery },
  responses: found(listOf(journeyEntryOutput, "JourneyEntryList"), "A page of entries.", missing),
});
registerPath({
  method: "post",
  path: `${base}/{id}/entries/{entryId}/exit`,
  permission: "journeys.write",
  tags: ["Admin: journeys"],
  summary: "End an active entry",
  description:
    "Marks the entry exited, so a journey without concurrent runs admits the user again (when multiple entries are allowed).",
  request: { params: idParams.extend({ entryId: z.uuid() }) },
  responses: gone("Exited.", "No such active entry."),
});
registerPath({
  method: "get",
  path: `${base}/{id}/entries/{entryId}`,
  permission: "journeys.read",
  tags: ["Admin: journeys"],
  summary: "Read an entry with its path",
  description:
    "The entry's step, state (`active`, `waiting` with `wake_at` and `waiting_for`, `exited`) and its path: each step passed, when, and the outcome (`delayed until 2026-12-01T09:00:00+01:00 (Europe/Vienna)`, `released by event …`, `timed out`, `branch: true`, `split: path 2`, `sent message …`, `skipped: unsubscribed`), a page at a time: `limit` rows (default 100, at most 500) after `cursor`, oldest first, with `path_next_cursor` for the rest.",
  request: { params: idParams.extend({ entryId: z.uuid() }), query: entryPathQuery },
  responses: found(journeyEntryPathOutput, "The entry and its path.", "No such journey or entry."),
});
