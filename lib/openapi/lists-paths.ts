import { z } from "zod";
import { listListsQuery } from "@/lib/lists/list-lists";
import { listMembersQuery } from "@/lib/lists/list-members";
import { listInput, listMemberOutput, listOutput, listPatch, listUsersInput } from "@/lib/lists/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, found, gone, jsonResponse, ok } from "./responses";

const base = "/api/admin/projects/{projectID}/lists";
const idParams = projectParams.extend({ id: z.uuid() });
const missing = "No such list.";
const changed = jsonResponse(
  z.object({ changed: z.array(z.uuid()) }).meta({ id: "ListMembershipChange" }),
  "The users whose membership actually changed.",
);

registerPath({
  method: "get",
  path: base,
  permission: "lists.read",
  tags: ["Admin: lists"],
  summary: "List lists (newest first)",
  description: "List lists (newest first). Role `support` or above; a console session works too.",
  request: { params: projectParams, query: listListsQuery },
  responses: ok(listOf(listOutput, "ListList"), "A page of lists."),
});
registerPath({
  method: "post",
  path: base,
  permission: "lists.write",
  tags: ["Admin: lists"],
  summary: "Create a list",
  description:
    "Dynamic rules are a tree of `{all: [...]}` / `{any: [...]}` groups whose leaves are `{event: {name, scope: user|organization, at_least, within_days, where: [{path, op, value}]}}` " +
    "(the user, or one of their organizations, did `name` at least N times in the last D days, where `.data.<path> <op> <value>`) and `{property: {path: email|phone|timezone|locale|created_at|data.<path>, op, value}}`. " +
    "Ops: eq, neq, gt, gte, lt, lte (same JSON type only), contains, exists, not_exists. Membership is re-evaluated for the affected user when an event the rules name arrives, every minute for windowed rules, and over all users on creation; changes emit `list.user.added` / `list.user.removed`. Role `editor` or above.",
  request: { params: projectParams, body: jsonBody(listInput) },
  responses: { 201: jsonResponse(listOutput, "Created.") },
});
registerPath({
  method: "get",
  path: `${base}/{id}`,
  permission: "lists.read",
  tags: ["Admin: lists"],
  summary: "Read a list",
  description: "Read a list. Role `support` or above; a console session works too.",
  request: { params: idParams },
  responses: found(listOutput, "The list.", missing),
});
registerPath({
  method: "patch",
  path: `${base}/{id}`,
  permission: "lists.write",
  tags: ["Admin: lists"],
  summary: "Rename a list or replace a dynamic list's rules",
  description:
    "New rules are evaluated over every user in the background. Rules on a static list: 422. Role `editor` or above.",
  request: { params: idParams, body: jsonBody(listPatch) },
  responses: { ...found(listOutput, "The list.", missing), 422: errorResponse("Rules for a static list.") },
});
registerPath({
  method: "delete",
  path: `${base}/{id}`,
  permission: "lists.write",
  tags: ["Admin: lists"],
  summary: "Delete a list and its memberships",
  description: "Delete a list and its memberships. Role `editor` or above; a console session works too.",
  request: { params: idParams },
  responses: gone("Deleted.", missing),
});
registerPath({
  method: "get",
  path: `${base}/{id}/users`,
  permission: "lists.read",
  tags: ["Admin: lists"],
  summary: "List a list's members (most recently added first)",
  description:
    "List a list's members (most recently added first). Role `support` or above; a console session works too.",
  request: { params: idParams, query: listMembersQuery },
  responses: found(listOf(listMemberOutput, "ListMemberList"), "A page of members.", missing),
});
registerPath({
  method: "post",
  path: `${base}/{id}/users`,
  permission: "lists.write",
  tags: ["Admin: lists"],
  summary: "Add users to a static list",
  description:
    "Emits `list.user.added` for each user actually added; unknown ids are ignored. Dynamic lists: 422. Role `editor` or above.",
  request: { params: idParams, body: jsonBody(listUsersInput) },
  responses: { 200: changed, 404: errorResponse(missing), 422: errorResponse("The list is dynamic.") },
});
registerPath({
  method: "delete",
  path: `${base}/{id}/users`,
  permission: "lists.write",
  tags: ["Admin: lists"],
  summary: "Remove users from a static list",
  description: "Emits `list.user.removed` for each user actually removed. Dynamic lists: 422. Role `editor` or above.",
  request: { params: idParams, body: jsonBody(listUsersInput) },
  responses: { 200: changed, 404: errorResponse(missing), 422: errorResponse("The list is dynamic.") },
});
