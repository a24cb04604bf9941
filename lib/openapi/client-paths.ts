import { z } from "zod";
import { deleteOrganizationParams, membershipInput, membershipOutput, membershipRemoveInput, organizationBatchInput, organizationInput, organizationOutput } from "@/lib/organizations/schemas";
import { identifyInput, userBatchInput, userInput, userOutput } from "@/lib/users/schemas";
import { errorResponse, jsonBody, jsonResponse, projectParams, registerPath } from "./registry";

const base = "/api/client/projects/{projectID}";
const conflict = errorResponse("The identifiers resolve to two different records; nothing was written. `records` lists them.");

registerPath({
  method: "post", path: `${base}/users`, tags: ["Users"], summary: "Create or update a user (upsert)",
  description: "Matches any identifier by (source, external_id); adds new identifiers to the matched user; `data` is shallow-merged in SQL (nested objects replaced whole). Omitted fields are kept, `null` clears. Needs role `client`.",
  request: { params: projectParams, body: jsonBody(userInput) },
  responses: { 200: jsonResponse(userOutput, "Updated."), 201: jsonResponse(userOutput, "Created."), 409: conflict },
});
registerPath({
  method: "post", path: `${base}/users/batch`, tags: ["Users"], summary: "Upsert up to 1,000 users atomically",
  request: { params: projectParams, body: jsonBody(userBatchInput) },
  responses: { 200: jsonResponse(z.object({ data: z.array(userOutput), created: z.number(), updated: z.number() }), "The stored users, in request order."), 409: conflict },
});
registerPath({
  method: "delete", path: `${base}/users`, tags: ["Users"], summary: "Erase a user",
  description: "Deletes the user, its identifiers, memberships, schedule assignments and events.",
  request: { params: projectParams, body: jsonBody(identifyInput) },
  responses: { 204: { description: "Erased." }, 404: errorResponse("No user has these identifiers."), 409: conflict },
});
registerPath({
  method: "post", path: `${base}/organizations`, tags: ["Organizations"], summary: "Create or update an organization (upsert)",
  request: { params: projectParams, body: jsonBody(organizationInput) },
  responses: { 200: jsonResponse(organizationOutput, "Updated."), 201: jsonResponse(organizationOutput, "Created."), 409: conflict },
});
registerPath({
  method: "post", path: `${base}/organizations/batch`, tags: ["Organizations"], summary: "Upsert up to 1,000 organizations atomically",
  request: { params: projectParams, body: jsonBody(organizationBatchInput) },
  responses: { 200: jsonResponse(z.object({ data: z.array(organizationOutput), created: z.number(), updated: z.number() }), "The stored organizations, in request order."), 409: conflict },
});
registerPath({
  method: "delete", path: `${base}/organizations`, tags: ["Organizations"], summary: "Delete an organization and its memberships",
  description:
    "Users stay; each former member gets `organization.user.removed`. The events recorded against the organization alone are erased (as `DELETE /users` erases a user's), unless `?keep_events=true` keeps them as history.",
  request: { params: projectParams, query: deleteOrganizationParams, body: jsonBody(identifyInput) },
  responses: { 204: { description: "Deleted." }, 404: errorResponse("No organization has these identifiers."), 409: conflict },
});
registerPath({
  method: "post", path: `${base}/organizations/users`, tags: ["Organizations"], summary: "Add a member, or merge membership data",
  description: "Membership data is stored apart from user and organization data and shallow-merged on re-add. Both must exist (404 otherwise).",
  request: { params: projectParams, body: jsonBody(membershipInput) },
  responses: { 200: jsonResponse(membershipOutput, "Membership data merged."), 201: jsonResponse(membershipOutput, "Member added."), 404: errorResponse("The organization or the user does not exist.") },
});
registerPath({
  method: "delete", path: `${base}/organizations/users`, tags: ["Organizations"], summary: "Remove a membership",
  description: "Deletes only the link; the user and the organization stay.",
  request: { params: projectParams, body: jsonBody(membershipRemoveInput) },
  responses: { 204: { description: "Removed." }, 404: errorResponse("Not a member, or either record is missing.") },
});
