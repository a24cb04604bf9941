import {
  addSuppressionsBody,
  addSuppressionsOutput,
  listSuppressionsQuery,
  MAX_SUPPRESSIONS_PER_REQUEST,
  removeSuppressionQuery,
  suppressionOutput,
} from "@/lib/suppressions/schemas";
import { z } from "zod";
import { jsonBody, listOf, projectParams, registerPath, registry } from "./registry";
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

const webhookTags = ["Webhooks: delivery feedback"];
registry.registerPath({
  method: "post",
  path: "/api/webhooks/twilio/{projectID}/status",
  tags: webhookTags,
  summary: "Twilio SMS status callback",
  description:
    "Every SMS is sent with this URL as its `StatusCallback`. Verified with `X-Twilio-Signature` under the auth token of the project's SMS provider (401 otherwise, nothing recorded). `delivered`, `undelivered` and `failed` (with `ErrorCode`; 21610 and 30004–30006 suppress the number) become the message's delivery, matched by `MessageSid`; other statuses are ignored.",
  request: {
    params: projectParams,
    body: {
      content: {
        "application/x-www-form-urlencoded": {
          schema: z.object({ MessageSid: z.string(), MessageStatus: z.string(), ErrorCode: z.string().optional() }),
        },
      },
    },
  },
  responses: {
    ...ok(z.object({ outcome: z.enum(["recorded", "duplicate", "unknown_message", "ignored"]) }), "Read."),
    401: errorResponse("Bad signature, or the project has no Twilio provider."),
  },
});
registry.registerPath({
  method: "post",
  path: "/api/webhooks/email/{providerID}",
  tags: webhookTags,
  summary: "E-mail provider delivery webhook",
  description:
    "For an SMTP provider whose `feedback` names its service: SendGrid's signed Event Webhook, Mailgun's webhooks, Postmark's (basic auth) or Amazon SES through an SNS HTTPS subscription (confirmed on its first post). Verified as the service signs (401 otherwise, nothing recorded); signed timestamps older than 5 minutes are refused; each event is recorded once (see docs/feedback.md).",
  request: {
    params: z.object({ providerID: z.uuid().meta({ description: "The provider's UUID." }) }),
    body: jsonBody(z.unknown(), "The service's own payload."),
  },
  responses: {
    ...ok(
      z.object({ recorded: z.number().int(), duplicate: z.number().int(), unknown: z.number().int() }),
      "Events recorded, already recorded, and naming no message of the provider's project.",
    ),
    401: errorResponse("Bad signature or credentials, a stale timestamp, or no such provider with feedback."),
  },
});
