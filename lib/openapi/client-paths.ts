import { z } from "zod";
import {
  deleteOrganizationParams,
  membershipBatchInput,
  membershipInput,
  membershipOutput,
  membershipRemoveInput,
  organizationBatchInput,
  organizationInput,
  organizationOutput,
} from "@/lib/organizations/schemas";
import { identifyInput, userBatchInput, userInput, userOutput } from "@/lib/users/schemas";
import { ECHO_NOTE, ORGANIZATION_ECHO_NOTE, USER_ECHO_NOTE } from "@/lib/lunogram/shapes";
import { jsonBody, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse } from "./responses";

const base = "/api/client/projects/{projectID}";
const browserKey =
  "A browser key (a `client` key with `allowed_origins`) may call it from its listed origins (CORS, `OPTIONS` preflight) and gets 202 without the stored record.";
const conflict = errorResponse(
  "The identifiers resolve to two different records; nothing was written. `records` lists them.",
);
/** What a batch upsert answers: the stored records in request order, with how many were created and updated. */
const batchOutput = (item: z.ZodType) => z.object({ data: z.array(item), created: z.number(), updated: z.number() });

registerPath({
  method: "post",
  path: `${base}/users`,
  permission: "users.write",
  tags: ["Users"],
  summary: "Create or update a user (upsert)",
  description:
    "Matches any identifier by (source, external_id); adds new identifiers to the matched user; `data` is shallow-merged in SQL (nested objects replaced whole). Omitted fields are kept, `null` clears. Needs role `client`. " +
    browserKey,
  keyPathNote: USER_ECHO_NOTE,
  request: { params: projectParams, body: jsonBody(userInput) },
  responses: { 200: jsonResponse(userOutput, "Updated."), 201: jsonResponse(userOutput, "Created."), 409: conflict },
});
registerPath({
  method: "post",
  path: `${base}/users/batch`,
  permission: "users.write",
  tags: ["Users"],
  summary: "Upsert up to 1,000 users atomically",
  description:
    "All items in one transaction and a constant number of statements (one identifier lookup, one insert of new users, one merge of existing ones, one insert of system events). Items naming the same user (by any identifier, including one an earlier item introduced) are merged in order. One invalid item or one conflict rejects the batch with the item's path; nothing is written.",
  keyPathNote: USER_ECHO_NOTE,
  request: { params: projectParams, body: jsonBody(userBatchInput) },
  responses: {
    200: jsonResponse(batchOutput(userOutput), "The stored users, in request order."),
    409: conflict,
  },
});
registerPath({
  method: "delete",
  path: `${base}/users`,
  permission: "users.write",
  tags: ["Users"],
  summary: "Erase a user",
  description: "Deletes the user, its identifiers, memberships, schedule assignments and events.",
  keyPathNote: ECHO_NOTE,
  request: { params: projectParams, body: jsonBody(identifyInput) },
  responses: { ...gone("Erased.", "No user has these identifiers."), 409: conflict },
});
registerPath({
  method: "post",
  path: `${base}/organizations`,
  permission: "organizations.write",
  tags: ["Organizations"],
  summary: "Create or update an organization (upsert)",
  keyPathNote: ORGANIZATION_ECHO_NOTE,
  request: { params: projectParams, body: jsonBody(organizationInput) },
  responses: {
    200: jsonResponse(organizationOutput, "Updated."),
    201: jsonResponse(organizationOutput, "Created."),
    409: conflict,
  },
});
registerPath({
  method: "post",
  path: `${base}/organizations/batch`,
  permission: "organizations.write",
  tags: ["Organizations"],
  summary: "Upsert up to 1,000 organizations atomically",
  description:
    "As `POST /users/batch`: one transaction, a constant number of statements, items naming the same organization merged in order, all or nothing.",
  request: { params: projectParams, body: jsonBody(organizationBatchInput) },
  responses: {
    200: jsonResponse(batchOutput(organizationOutput), "The stored organizations, in request order."),
    409: conflict,
  },
});
registerPath({
  method: "delete",
  path: `${base}/organizations`,
  permission: "organizations.write",
  tags: ["Organizations"],
  summary: "Delete an organization and its memberships",
  keyPathNote: ECHO_NOTE,
  description:
    "Users stay; each former member gets `organization.user.removed`. The events recorded against the organization alone are erased (as `DELETE /users` erases a user's), unless `?keep_events=true` keeps them as history.",
  request: { params: projectParams, query: deleteOrganizationParams, body: jsonBody(identifyInput) },
  responses: { ...gone("Deleted.", "No organization has these identifiers."), 409: conflict },
});
registerPath({
  method: "post",
  path: `${base}/organizations/users`,
  permission: "organizations.write",
  tags: ["Organizations"],
  summary: "Add a member, or merge membership data",
  description:
    "Membership data is stored apart from user and organization data and shallow-merged on re-add. Both must exist (404 otherwise).",
  request: { params: projectParams, body: jsonBody(membershipInput) },
  responses: {
    200: jsonResponse(membershipOutput, "Membership data merged."),
    201: jsonResponse(membershipOutput, "Member added."),
    404: errorResponse("The organization or the user does not exist."),
  },
});
registerPath({
  method: "post",
  path: `${base}/organizations/users/batch`,
  permission: "organizations.write",
  tags: ["Organizations"],
  summary: "Add up to 1,000 members atomically",
  description:
    "Each item as `POST /organizations/users`, all in one transaction and a constant number of statements. Items naming the same membership are merged in order. The first item whose organization or user is missing (404) or ambiguous (409) rejects the batch, naming its path (`[517].user.identifier`); nothing is written.",
  request: { params: projectParams, body: jsonBody(membershipBatchInput) },
  responses: {
    ...found(
      batchOutput(membershipOutput),
      "The stored memberships, in request order.",
      "An item's organization or user does not exist.",
    ),
    409: conflict,
  },
});
registerPath({
  method: "delete",
  path: `${base}/organizations/users`,
  permission: "organizations.write",
  tags: ["Organizations"],
  summary: "Remove a membership",
  description: "Deletes only the link; the user and the organization stay.",
  request: { params: projectParams, body: jsonBody(membershipRemoveInput) },
  responses: gone("Removed.", "Not a member, or either record is missing."),
});
