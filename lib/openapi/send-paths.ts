import { z } from "zod";
import { MAX_IDEMPOTENCY_KEY, sendMessageBody, sentMessageOutput } from "@/lib/messages/schemas";
import { jsonBody, projectParams, registerPath } from "./registry";
import { errorResponse, jsonResponse } from "./responses";

registerPath({
  method: "post",
  path: "/api/client/projects/{projectID}/messages",
  permission: "messages.send",
  tags: ["Messages"],
  summary: "Send a message (transactional send API)",
  description:
    "One message of a template (`template_id`, or `template` by name) to one user (`user_id`, or `identifier`), with `data` for the template, now or at `send_at`. Answers 202 once the message row is durable; a worker sends it. A non-transactional template obeys the user's subscriptions, channel opt-outs, frequency caps and quiet hours like every send (the rules of the one send verb) (`state: skipped` when a rule decides at once; the messages log says why). With `Idempotency-Key` (per project, 24 hours), a retry with the same key and body answers the first answer again (`Idempotent-Replayed: true`) and sends nothing, also when requests race; the same key with another body is 422. Role `client` or above.",
  request: {
    params: projectParams,
    headers: z.object({
      "idempotency-key": z
        .string()
        .min(1)
        .max(MAX_IDEMPOTENCY_KEY)
        .optional()
        .meta({ description: "A key of your own (a UUID) making retries of this request safe." }),
    }),
    body: jsonBody(sendMessageBody),
  },
  responses: {
    202: jsonResponse(sentMessageOutput, "The message, durable: `queued`, or `skipped` by a rule."),
    404: errorResponse("No such template or user in this project."),
    422: errorResponse(
      "`to` for a non-transactional template, or an Idempotency-Key used before with another body. Nothing was written.",
    ),
  },
});
