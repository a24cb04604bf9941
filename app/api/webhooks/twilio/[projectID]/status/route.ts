import { systemContext } from "@/lib/access/context";
import { recordTwilioStatus } from "@/lib/feedback/record-twilio-status";
import { limitOrThrow } from "@/lib/http/rate-limit";
import { publicRoute } from "@/lib/http/public-route";
import { readTwilioRequest } from "@/lib/http/twilio-request";
import { webhookBudget } from "@/lib/feedback/webhook-budget";

type Params = { projectID: string };

/** Twilio's SMS status callback (form-encoded POST): a final status becomes the message's delivery report. */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const headers = await limitOrThrow("webhook", `twilio:${params.projectID}`, webhookBudget(), "for this webhook");
  const outcome = await recordTwilioStatus(systemContext(db, params.projectID), await readTwilioRequest(req));
  return Response.json({ outcome }, { status: 200, headers });
});
