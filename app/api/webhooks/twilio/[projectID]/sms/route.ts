import { publicRoute } from "@/lib/http/public-route";
import { readForm } from "@/lib/http/read-form";
import { publicOrigin } from "@/lib/http/public-origin";
import { handleInboundSms } from "@/lib/subscriptions/handle-inbound-sms";
import { systemContext } from "@/lib/access/context";

type Params = { projectID: string };

/**
 * Twilio signs the exact URL it was configured with: normally the public origin (AUTH_URL); req.url's own
 * origin is tried last for a webhook configured with the internal address. Only verified, never emitted.
 */
function signedUrlCandidates(req: Request): string[] {
  const url = new URL(req.url);
  const tail = url.pathname + url.search;
  return [...new Set([publicOrigin(req) + tail, url.origin + tail])];
}

/** Twilio's "A message comes in" webhook (form-encoded POST); answers empty TwiML since Twilio itself replies to STOP/START. */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const fields = [...(await readForm(req))] as [string, string][];
  await handleInboundSms(systemContext(db, params.projectID), {
    urls: signedUrlCandidates(req),
    params: fields,
    signature: req.headers.get("x-twilio-signature"),
  });
  return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', {
    status: 200,
    headers: { "content-type": "text/xml" },
  });
});
