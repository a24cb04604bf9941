import { z } from "zod";
import { eventOutput } from "@/lib/events/view";
import { listEventsQuery } from "@/lib/events/list-events";
import { listOrganizationsQuery } from "@/lib/organizations/list-organizations";
import { deleteOrganizationParams, organizationOutput } from "@/lib/organizations/schemas";
import { listUsersQuery } from "@/lib/users/list-users";
import { userOutput } from "@/lib/users/schemas";
import { assignmentOutput } from "@/lib/schedules/schemas";
import { userSubscriptionOutput } from "@/lib/subscriptions/schemas";
import { errorResponse, jsonResponse, listOf, projectParams, registerPath } from "./registry";

const base = "/api/admin/projects/{projectID}";
const idParams = projectParams.extend({ id: z.uuid() });
const queryOf = (s: z.ZodObject) => s.omit({}).partial();

const userDetail = userOutput
  .extend({
    memberships: z.array(z.object({ organization_id: z.uuid(), identifier: z.array(z.unknown()), data: z.record(z.string(), z.unknown()) })),
    subscriptions: z.array(userSubscriptionOutput),
    schedules: z.array(assignmentOutput),
    recent_events: z.array(eventOutput),
  })
  .meta({ id: "UserDetail" });

const organizationDetail = organizationOutput
  .extend({
    members: z.array(z.object({ user_id: z.uuid(), identifier: z.array(z.unknown()), data: z.record(z.string(), z.unknown()) })),
    schedules: z.array(assignmentOutput),
    recent_events: z.array(eventOutput),
  })
  .meta({ id: "OrganizationDetail" });

registerPath({
  method: "get", path: `${base}/users`, tags: ["Admin: data"], summary: "List users (newest first)",
  description: "Filters: `source` + `external_id`, `email` (case-insensitive), `data` (URL-encoded JSON containment). Role `support` or above.",
  request: { params: projectParams, query: queryOf(listUsersQuery) },
  responses: { 200: jsonResponse(listOf(userOutput, "UserList"), "A page of users.") },
});
registerPath({
  method: "get", path: `${base}/users/{id}`, tags: ["Admin: data"], summary: "Read a user with memberships and recent events",
  request: { params: idParams },
  responses: { 200: jsonResponse(userDetail, "The user."), 404: errorResponse("No such user.") },
});
registerPath({
  method: "delete", path: `${base}/users/{id}`, tags: ["Admin: data"], summary: "Erase a user and everything recorded against it (admin)",
  request: { params: idParams },
  responses: { 204: { description: "Erased." }, 404: errorResponse("No such user.") },
});
registerPath({
  method: "get", path: `${base}/organizations`, tags: ["Admin: data"], summary: "List organizations (newest first)",
  request: { params: projectParams, query: queryOf(listOrganizationsQuery) },
  responses: { 200: jsonResponse(listOf(organizationOutput, "OrganizationList"), "A page of organizations.") },
});
registerPath({
  method: "get", path: `${base}/organizations/{id}`, tags: ["Admin: data"], summary: "Read an organization with members and recent events",
  request: { params: idParams },
  responses: { 200: jsonResponse(organizationDetail, "The organization."), 404: errorResponse("No such organization.") },
});
registerPath({
  method: "delete", path: `${base}/organizations/{id}`, tags: ["Admin: data"], summary: "Delete an organization and its memberships (admin)",
  description:
    "Users stay; each former member gets `organization.user.removed`. The events recorded against the organization alone are erased, unless `?keep_events=true` keeps them as history.",
  request: { params: idParams, query: deleteOrganizationParams },
  responses: { 204: { description: "Deleted." }, 404: errorResponse("No such organization.") },
});
registerPath({
  method: "get", path: `${base}/events`, tags: ["Admin: data"], summary: "List events (newest first)",
  description: "Filters: `name`, `user_id`, `organization_id`, `since` (inclusive), `until` (exclusive).",
  request: { params: projectParams, query: queryOf(listEventsQuery) },
  responses: { 200: jsonResponse(listOf(eventOutput, "EventList"), "A page of events.") },
});
