import { publicRoute } from "@/lib/http/public-route";
import { readForm } from "@/lib/http/read-form";
import { publicOrigin } from "@/lib/signing/public-url";

/**
 * Twilio signs the exact URL it was configured with. Behind a proxy that is RELAY_PUBLIC_URL's origin;
 * directly, it is the Host the request came to (Next rewrites req.url's host, so read the header too).
 */
function signedUrlCandidates(req: Request): string[] {
  const url = new URL(req.url);
  const tail = url.pathname + url.search;
  const host = req.headers.get("host");
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(":", "");
  return [...new Set([publicOrigin(req) + tail, ...(host ? [`${proto}://${host}${tail}`] : []), url.origin + tail])];
}
import { handleInboundSms } from "@/lib/subscriptions/handle-inbound-sms";

type Params = { projectID: string };

/**
 * Twilio's "A message comes in" webhook for a project's number (HTTP POST, form-encoded). Verified with
 * the project's auth token; answers empty TwiML, since Twilio itself replies to STOP/START.
 */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const fields = [...(await readForm(req))] as [string, string][];
  await handleInboundSms(db, params.projectID, { urls: signedUrlCandidates(req), params: fields, signature: req.headers.get("x-twilio-signature") });
  return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', { status: 200, headers: { "content-type": "text/xml" } });
});
