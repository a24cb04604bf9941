import { systemContext } from "@/lib/access/context";
import { recordTwilioStatus } from "@/lib/feedback/record-twilio-status";
import { limitOrThrow } from "@/lib/http/rate-limit";
import { publicOrigin } from "@/lib/http/public-origin";
import { publicRoute } from "@/lib/http/public-route";
import { readForm } from "@/lib/http/read-form";
import { webhookBudget } from "@/lib/feedback/webhook-budget";

type Params = { projectID: string };

/** Twilio signs the exact StatusCallback it was given (the public origin); req.url's origin is tried last. */
function signedUrlCandidates(req: Request): string[] {
  const url = new URL(req.url);
  const tail = url.pathname + url.search;
  return [...new Set([publicOrigin(req) + tail, url.origin + tail])];
}

/** Twilio's SMS status callback (form-encoded POST): a final status becomes the message's delivery report. */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const headers = await limitOrThrow("webhook", `twilio:${params.projectID}`, webhookBudget(), "for this webhook");
  const fields = [...(await readForm(req))] as [string, string][];
  const outcome = await recordTwilioStatus(systemContext(db, params.projectID), {
    urls: signedUrlCandidates(req),
    params: fields,
    signature: req.headers.get("x-twilio-signature"),
  });
  return Response.json({ outcome }, { status: 200, headers });
});
