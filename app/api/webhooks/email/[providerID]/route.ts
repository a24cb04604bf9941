import { recordEmailWebhook } from "@/lib/feedback/record-email-webhook";
import { webhookBudget } from "@/lib/feedback/webhook-budget";
import { limitOrThrow } from "@/lib/http/rate-limit";
import { publicRoute } from "@/lib/http/public-route";
import { readLimited } from "@/lib/http/read-json";

type Params = { providerID: string };

/** A batch of SendGrid's events fits well within this; larger posts are refused before parsing. */
const MAX_WEBHOOK_BYTES = 512 * 1024;

/** An e-mail provider's delivery webhook (SendGrid, Mailgun, Postmark, SES via SNS): see docs/feedback.md. */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const headers = await limitOrThrow("webhook", `email:${params.providerID}`, webhookBudget(), "for this webhook");
  const body = Buffer.from(await readLimited(req, MAX_WEBHOOK_BYTES));
  const result = await recordEmailWebhook(
    { db },
    { providerId: params.providerID, request: { headers: req.headers, body } },
  );
  return Response.json(result, { status: 200, headers });
});
