import { Invalid } from "@/lib/http/errors";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { isStorable } from "@/lib/http/json-value";
import { MAX_IDEMPOTENCY_KEY, sendMessageBody } from "./schemas";
import { sendMessage } from "./send-message";

/** The `Idempotency-Key` header: absent, or 1 to 255 characters (a UUID is the usual choice). */
function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers.get("idempotency-key");
  if (raw === null) return undefined;
  const key = raw.trim();
  if (!key || key.length > MAX_IDEMPOTENCY_KEY || !isStorable(key))
    throw new Invalid(`The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`, {
      errors: [{ path: "Idempotency-Key", message: `1 to ${MAX_IDEMPOTENCY_KEY} characters` }],
    });
  return key;
}

/**
 * `POST …/messages` of the client API (the transactional send API), built once for its two paths:
 * `/api/client/projects/{projectID}/messages` and `/api/client/messages` (the project taken from the API
 * key). 202 once the message row is durable; a replay of an Idempotency-Key says so in `Idempotent-Replayed`.
 */
export function sendMessageRoutes() {
  return {
    POST: withProject("messages.send", async (req, ctx) => {
      const idempotencyKey = idempotencyKeyOf(req);
      const body = await readJson(req, sendMessageBody);
      const { answer, replayed } = await sendMessage(ctx, { body, ...(idempotencyKey ? { idempotencyKey } : {}) });
      const res = json(answer, 202);
      if (replayed) res.headers.set("idempotent-replayed", "true");
      return res;
    }),
  };
}
