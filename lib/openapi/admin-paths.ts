import { z } from "zod";
import { eventListItem, eventOutput } from "@/lib/events/view";
import { identifierOutput } from "@/lib/identity/schemas";
import { listEventsQuery } from "@/lib/events/list-events";
import { listOrganizationsQuery } from "@/lib/organizations/list-organizations";
import { deleteOrganizationParams, organizationOutput } from "@/lib/organizations/schemas";
import { listUsersQuery } from "@/lib/users/list-users";
import { userOutput } from "@/lib/users/schemas";
import { MEMBERSHIPS_SHOWN } from "@/lib/users/get-user";
import { assignmentOutput } from "@/lib/schedules/schemas";
import { userSubscriptionOutput } from "@/lib/subscriptions/schemas";
import { importKindQuery } from "@/lib/imports/formats";
import { importOutput } from "@/lib/imports/view";
import { listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const base = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });
const queryOf = (s: z.ZodObject) => s.omit({}).partial();

/** `GET /users/{id}`; the console reads it typed by this schema. */
export const userDetail = userOutput
  .extend({
    memberships: z
      .array(
        z.object({
          organization_id: z.uuid(),
          identifier: z.array(identifierOutput),
          data: z.record(z.string(), z.unknown()),
        }),
      )
      .meta({ description: `The first ${MEMBERSHIPS_SHOWN} memberships, oldest first.` }),
    memberships_total: z.number().int().meta({ description: "How many memberships the user has in all." }),
    subscriptions: z.array(userSubscriptionOutput),
    schedules: z.array(assignmentOutput),
    recent_events: z.array(eventOutput),
    lists: z
      .array(z.object({ id: z.uuid(), name: z.string(), kind: z.enum(["dynamic", "static"]) }))
      .meta({ description: "The lists the user is a member of (at most 200, by name)." }),
    journeys: z.array(z.object({ id: z.uuid(), name: z.string(), active: z.boolean() })).meta({
      description: "The journeys the user has entered (at most 200, by name); `active`: an entry not exited.",
    }),
  })
  .meta({ id: "UserDetail" });

/** `GET /organizations/{id}`; the console reads it typed by this schema. */
export const organizationDetail = organizationOutput
  .extend({
    members: z.array(
      z.object({ user_id: z.uuid(), identifier: z.array(identifierOutput), data: z.record(z.string(), z.unknown()) }),
    ),
    schedules: z.array(assignmentOutput),
    recent_events: z.array(eventOutput),
  })
  .meta({ id: "OrganizationDetail" });

registerPath({
  method: "get",
  path: `${base}/users`,
  permission: "users.read",
  tags: ["Admin: data"],
  summary: "List users (newest first)",
  description:
    "Filters: `source` + `external_id`, `email` (case-insensitive), `data` (URL-encoded JSON containment). Role `support` or above.",
  request: { params: projectParams, query: queryOf(listUsersQuery) },
  responses: ok(listOf(userOutput, "UserList"), "A page of users."),
});
registerPath({
  method: "get",
  path: `${base}/users/{id}`,
  permission: "users.read",
  tags: ["Admin: data"],
  summary: "Read a user with memberships and recent events",
  request: { params: idParams },
  responses: found(userDetail, "The user.", "No such user."),
});
registerPath({
  method: "delete",
  path: `${base}/users/{id}`,
  permission: "users.delete",
  tags: ["Admin: data"],
  summary: "Erase a user and everything recorded against it (admin)",
  request: { params: idParams },
  responses: gone("Erased.", "No such user."),
});
registerPath({
  method: "get",
  path: `${base}/organizations`,
  permission: "organizations.read",
  tags: ["Admin: data"],
  summary: "List organizations (newest first)",
  request: { params: projectParams, query: queryOf(listOrganizationsQuery) },
  responses: ok(listOf(organizationOutput, "OrganizationList"), "A page of organizations."),
});
registerPath({
  method: "get",
  path: `${base}/organizations/{id}`,
  permission: "organizations.read",
  tags: ["Admin: data"],
  summary: "Read an organization with members and recent events",
  request: { params: idParams },
  responses: found(organizationDetail, "The organization.", "No such organization."),
});
registerPath({
  method: "delete",
  path: `${base}/organizations/{id}`,
  permission: "organizations.delete",
  tags: ["Admin: data"],
  summary: "Delete an organization and its memberships (admin)",
  description:
    "Users stay; each former member gets `organization.user.removed`. The events recorded against the organization alone are erased, unless `?keep_events=true` keeps them as history.",
  request: { params: idParams, query: deleteOrganizationParams },
  responses: gone("Deleted.", "No such organization."),
});
registerPath({
  method: "get",
  path: `${base}/events`,
  permission: "events.read",
  tags: ["Admin: data"],
  summary: "List events (newest first)",
  description: "Filters: `name`, `user_id`, `organization_id`, `since` (inclusive), `until` (exclusive).",
  request: { params: projectParams, query: queryOf(listEventsQuery) },
  responses: ok(listOf(eventListItem, "EventList"), "A page of events."),
});

const importIdParams = projectParams.extend({ id: z.uuid() });
registerPath({
  method: "post",
  path: `${base}/imports`,
  permission: "imports.write",
  tags: ["Admin: data"],
  summary: "Import users, organizations or memberships from a file",
  description: [
    "The body is the file itself, streamed into storage (never read whole), up to 1 GiB: `text/csv` (a header row) or `application/x-ndjson` (one upsert body per line, as `POST /users`, `/organizations` or `/organizations/users`).",
    "Answered `202` at once; the worker applies the rows in batches (5,000 rows or 2 MiB, whichever comes first) through the same set-based path as the batch endpoints, committing each batch with its checkpoint, so an import resumes after a worker crash with no row applied twice and none lost. An import that stopped its worker twice is failed with its reason. Watch it with `GET /imports/{id}`.",
    "A project holds at most 2 unfinished imports (`IMPORT_MAX_UNFINISHED`) and 2 GiB of stored upload (`IMPORT_MAX_STORED_BYTES`); past either, `429` with `Retry-After`. A row is at most 128 KiB (an NDJSON row also 40 levels and 20,000 JSON values, checked before it is parsed); a larger one is a row error. The file may be sent with `Content-Encoding: gzip` or `deflate`.",
    "CSV columns: users `external_id` (required), `source`, `email`, `phone`, `timezone`, `locale`; organizations `external_id`, `source`, `name`; memberships `organization_external_id`, `user_external_id`, `organization_source`, `user_source`; all kinds `data.<key>` cells, typed: numbers, `true`/`false`/`null` and JSON objects, arrays or strings stay values, anything else is text; empty cells are omitted.",
    "A malformed or invalid row (or one whose identifiers name two records, or a membership whose user is missing) is a row error with its line number, not a failed import. Role `client` or above; `X-File-Name` (percent-encoded) names the upload in the console.",
  ].join("\n\n"),
  request: {
    params: projectParams,
    query: importKindQuery,
    body: {
      required: true,
      content: { "text/csv": { schema: z.string() }, "application/x-ndjson": { schema: z.string() } },
    },
  },
  responses: {
    202: jsonResponse(importOutput, "Stored and queued."),
    400: errorResponse("An empty file, a CSV header with no rows, or a header with missing or unknown columns."),
    413: errorResponse("Over 1 GiB, or over what the project may store (refused while streaming; nothing kept)."),
    415: errorResponse(
      "Not `text/csv` or `application/x-ndjson`, binary content, or a `Content-Encoding` other than gzip or deflate.",
    ),
    422: errorResponse("The import was cancelled while it was uploading."),
    429: errorResponse(
      "The project's unfinished imports are at their limit (count or stored bytes); see `Retry-After`.",
    ),
  },
});
registerPath({
  method: "get",
  path: `${base}/imports`,
  permission: "imports.read",
  tags: ["Admin: data"],
  summary: "The project's latest 50 imports",
  request: { params: projectParams },
  responses: ok(z.object({ data: z.array(importOutput) }), "Newest first."),
});
registerPath({
  method: "get",
  path: `${base}/imports/{id}`,
  permission: "imports.read",
  tags: ["Admin: data"],
  summary: "An import's state and progress",
  description:
    "`rows` read so far, `processed` (applied), `failed` (row errors; the first 1,000 listed with their line numbers), `bytes_processed` of `bytes` for a progress bar. `done` only once every row is settled.",
  request: { params: importIdParams },
  responses: found(importOutput, "The import.", "No such import in this project."),
});
registerPath({
  method: "delete",
  path: `${base}/imports/{id}`,
  permission: "imports.write",
  tags: ["Admin: data"],
  summary: "Cancel an import",
  description: "No further batch is applied (batches already committed stay); the stored file is dropped.",
  request: { params: importIdParams },
  responses: {
    ...found(importOutput, "Cancelled.", "No such import in this project."),
    422: errorResponse("The import has already finished."),
  },
});
