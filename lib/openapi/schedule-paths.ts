import { z } from "zod";
import { ECHO_NOTE } from "@/lib/lunogram/shapes";
import { identifierOutput } from "@/lib/identity/schemas";
import { listAssignmentsQuery } from "@/lib/schedules/list-assignments";
import { listSchedulesQuery } from "@/lib/schedules/list-schedules";
import {
  assignmentInput,
  assignmentOutput,
  assignmentPatchInput,
  offsetInput,
  offsetOutput,
  pauseInput,
  resumeInput,
  scheduleInput,
  scheduleOutput,
  unassignInput,
} from "@/lib/schedules/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const client = "/api/client/projects/{projectID}";
const admin = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });
const assignmentParams = idParams.extend({ assignmentId: z.uuid() });
const rule = errorResponse("A well-formed request that breaks a rule; `detail` says which.");
const intervalNote =
  "Intervals are PostgreSQL intervals (`30 minutes`, `7 days`, `1 month`); one PostgreSQL does not accept, or a negative one, is a 400 naming the field.";

const scheduleDetail = scheduleOutput
  .extend({
    assignments: z.object({ active: z.number().int(), paused: z.number().int(), fired: z.number().int() }),
    skipped_firings: z
      .number()
      .int()
      .meta({ description: "Firings skipped because they were over an hour late when made or claimed." }),
  })
  .meta({ id: "ScheduleDetail" });
const assignmentListItem = assignmentOutput
  .extend({ identifier: z.array(identifierOutput) })
  .meta({ id: "ScheduleAssignmentListItem" });

for (const [kind, tag] of [
  ["users", "Users"],
  ["organizations", "Organizations"],
] as const) {
  const one = kind === "users" ? "user" : "organization";
  registerPath({
    method: "post",
    path: `${client}/${kind}/scheduled`,
    permission: "schedules.assign",
    keyPathNote: ECHO_NOTE,
    tags: [tag, "Schedules"],
    summary: `Create or replace a${one === "user" ? "" : "n"} ${one}'s schedule assignment`,
    description:
      `Upsert keyed by (${one}, name): replaces timing, interval and data, and makes one pending firing per offset of the definition. ` +
      "Give `scheduled_at` (single) or `interval` (recurring, optional `start_at`, default now: the first occurrence is then one interval later; a future `start_at` is itself the first). " +
      `A name with no definition creates one (recurring when \`interval\` is given). ${intervalNote} ` +
      `Unknown ${one}: 404. Timing that does not match the definition's type: 422. Needs role \`client\`.`,
    request: { params: projectParams, body: jsonBody(assignmentInput) },
    responses: {
      200: jsonResponse(assignmentOutput, "Replaced."),
      201: jsonResponse(assignmentOutput, "Created."),
      404: errorResponse(`No such ${one}.`),
      422: rule,
    },
  });
  registerPath({
    method: "delete",
    path: `${client}/${kind}/scheduled`,
    permission: "schedules.assign",
    keyPathNote: ECHO_NOTE,
    tags: [tag, "Schedules"],
    summary: `Remove a${one === "user" ? "" : "n"} ${one}'s schedule assignment`,
    description: "Deletes the assignment and its unfired firings. Needs role `client`.",
    request: { params: projectParams, body: jsonBody(unassignInput) },
    responses: {
      204: { description: "Removed." },
      404: errorResponse(`No such ${one}, or it has no assignment with that name.`),
    },
  });
  registerPath({
    method: "post",
    path: `${client}/${kind}/scheduled/pause`,
    permission: "schedules.assign",
    tags: [tag, "Schedules"],
    summary: `Pause a${one === "user" ? "" : "n"} ${one}'s recurring assignment`,
    description:
      "`immediately` deletes the unfired firings; `after_next_interval` lets the current cycle fire and then stops advancing. " +
      "Pausing a single schedule or an already paused assignment is a 422. Needs role `client`.",
    request: { params: projectParams, body: jsonBody(pauseInput) },
    responses: { ...found(assignmentOutput, "Paused.", "No such assignment."), 422: rule },
  });
  registerPath({
    method: "post",
    path: `${client}/${kind}/scheduled/resume`,
    permission: "schedules.assign",
    tags: [tag, "Schedules"],
    summary: `Resume a${one === "user" ? "" : "n"} ${one}'s paused assignment`,
    description:
      "`immediately` rebases the anchor to now and fires the first occurrence at once; `at_next_interval` keeps the anchor and fires at the next `anchor + k·interval` after now " +
      "(or simply carries on if the current cycle has not fired yet). Resuming an assignment that is not paused is a 422. Needs role `client`.",
    request: { params: projectParams, body: jsonBody(resumeInput) },
    responses: { ...found(assignmentOutput, "Resumed.", "No such assignment."), 422: rule },
  });
}

registerPath({
  method: "get",
  path: `${admin}/schedules`,
  permission: "schedules.read",
  tags: ["Admin: schedules"],
  summary: "List schedule definitions (newest first)",
  description: "Each with its offsets in firing order. Includes the built-in `anniversary`. Role `support` or above.",
  request: { params: projectParams, query: listSchedulesQuery.partial() },
  responses: ok(listOf(scheduleOutput, "ScheduleList"), "A page of definitions."),
});
registerPath({
  method: "post",
  path: `${admin}/schedules`,
  permission: "schedules.write",
  tags: ["Admin: schedules"],
  summary: "Create a schedule definition",
  description: `Every definition gets the default offset \`0 minutes after\`; \`offsets\` adds more. A name already used is a 409. ${intervalNote} Role \`editor\` or above.`,
  request: { params: projectParams, body: jsonBody(scheduleInput) },
  responses: { 201: jsonResponse(scheduleOutput, "Created."), 409: errorResponse("A schedule with this name exists.") },
});
registerPath({
  method: "get",
  path: `${admin}/schedules/{id}`,
  permission: "schedules.read",
  tags: ["Admin: schedules"],
  summary: "Read a schedule definition",
  description: "With its offsets, assignment counts by state and the number of skipped (too late) firings.",
  request: { params: idParams },
  responses: found(scheduleDetail, "The definition.", "No such schedule."),
});
registerPath({
  method: "delete",
  path: `${admin}/schedules/{id}`,
  permission: "schedules.write",
  tags: ["Admin: schedules"],
  summary: "Delete a schedule definition",
  description:
    "Deletes its offsets, assignments and unfired firings. The built-in `anniversary` cannot be deleted (422). Role `editor` or above.",
  request: { params: idParams },
  responses: { ...gone("Deleted.", "No such schedule."), 422: rule },
});
registerPath({
  method: "delete",
  path: `${admin}/schedules/{id}/offsets/{offsetId}`,
  permission: "schedules.write",
  tags: ["Admin: schedules"],
  summary: "Remove an offset",
  description:
    "Deletes the offset and its firings. Cycles that were only waiting on it close as if it had fired. A schedule keeps at least one offset (422). Role `editor` or above.",
  request: { params: idParams.extend({ offsetId: z.uuid() }) },
  responses: { ...gone("Removed.", "No such schedule or offset."), 422: rule },
});
registerPath({
  method: "get",
  path: `${admin}/schedules/{id}/offsets`,
  permission: "schedules.read",
  tags: ["Admin: schedules"],
  summary: "List a definition's offsets",
  description:
    "Every offset of the definition in one page (`next_cursor` is always null), in firing order around the occurrence: the earliest `before` first, the latest `after` last. An exception to the newest-first, cursor-paged list contract because firing order is what the offsets mean, and a definition holds at most 51 offsets (the default and 50 more; adding past that is a 422).",
  request: { params: idParams },
  responses: found(
    listOf(offsetOutput, "ScheduleOffsetList"),
    "The offsets (`next_cursor` is always null).",
    "No such schedule.",
  ),
});
registerPath({
  method: "post",
  path: `${admin}/schedules/{id}/offsets`,
  permission: "schedules.write",
  tags: ["Admin: schedules"],
  summary: "Add an offset to a definition",
  description:
    "The same interval and direction again is a 409 (`1 week` equals `7 days`). Every active assignment of the definition gets a firing for the new offset in its current cycle; " +
    `with existing assignments this runs in the background (the worker's \`schedules.backfill-offset\` job, page by page), so the answer is immediate. ${intervalNote} Role \`editor\` or above.`,
  request: { params: idParams, body: jsonBody(offsetInput) },
  responses: {
    201: jsonResponse(offsetOutput, "Added."),
    404: errorResponse("No such schedule."),
    409: errorResponse("The definition already has this offset."),
    422: errorResponse("The definition already holds 51 offsets."),
  },
});
registerPath({
  method: "get",
  path: `${admin}/schedules/{id}/assignments`,
  permission: "schedules.read",
  tags: ["Admin: schedules"],
  summary: "List a definition's assignments (newest first)",
  description:
    "Each with the user's or organization's identifiers, state, interval, pending firings and next fire time. Filter with `state`. Role `support` or above.",
  request: { params: idParams, query: listAssignmentsQuery.partial() },
  responses: found(listOf(assignmentListItem, "ScheduleAssignmentList"), "A page of assignments.", "No such schedule."),
});
registerPath({
  method: "get",
  path: `${admin}/schedules/{id}/assignments/{assignmentId}`,
  permission: "schedules.read",
  tags: ["Admin: schedules"],
  summary: "Read one assignment",
  request: { params: assignmentParams },
  responses: found(assignmentOutput, "The assignment.", "No such assignment in this schedule."),
});
registerPath({
  method: "patch",
  path: `${admin}/schedules/{id}/assignments/{assignmentId}`,
  permission: "schedules.write",
  tags: ["Admin: schedules"],
  summary: "Pause or resume one assignment",
  description:
    '`{state: "paused", mode: "immediately" | "after_next_interval"}` pauses, `{state: "active", mode: "immediately" | "at_next_interval"}` resumes, ' +
    "with the same rules as the client pause/resume endpoints (invalid transitions are 422). Role `editor` or above.",
  request: { params: assignmentParams, body: jsonBody(assignmentPatchInput) },
  responses: {
    ...found(assignmentOutput, "The assignment after the change.", "No such assignment in this schedule."),
    422: rule,
  },
});
