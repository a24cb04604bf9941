import {
  addSuppressionsBody,
  addSuppressionsOutput,
  listSuppressionsQuery,
  MAX_SUPPRESSIONS_PER_REQUEST,
  removeSuppressionQuery,
  suppressionOutput,
} from "@/lib/suppressions/schemas";
import { jsonBody, listOf, projectParams, registerPath } from "./registry";
import { errorResponse, gone, ok } from "./responses";

const base = "/api/admin/projects/{projectID}/suppressions";
const tags = ["Admin: suppressions"];

registerPath({
  method: "get",
  path: base,
  permission: "suppressions.read",
  tags,
  summary: "List suppressed addresses (newest first)",
  description:
    "Addresses no message goes to (skipped with reason `suppressed`), with the reason and the message whose report caused it. `address` finds those starting with it. Role `support` or above.",
  request: { params: projectParams, query: listSuppressionsQuery },
  responses: ok(listOf(suppressionOutput, "SuppressionList"), "A page of suppressions."),
});
registerPath({
  method: "post",
  path: base,
  permission: "suppressions.write",
  tags,
  summary: "Suppress addresses",
  description: `Up to ${MAX_SUPPRESSIONS_PER_REQUEST.toLocaleString("en")} addresses at once; one already suppressed keeps its first reason. Role \`editor\` or above.`,
  request: { params: projectParams, body: jsonBody(addSuppressionsBody) },
  responses: ok(addSuppressionsOutput, "How many were added."),
});
registerPath({
  method: "delete",
  path: base,
  permission: "suppressions.remove",
  tags,
  summary: "Take an address off the suppression list",
  description:
    "Records `user.suppression.removed` on the users holding the address, with who removed it. Role `admin`: mail to an address that bounced or complained may spend the sender's reputation again.",
  request: { params: projectParams, query: removeSuppressionQuery },
  responses: { ...gone("Removed.", "The address is not suppressed."), 400: errorResponse("Invalid query.") },
});
