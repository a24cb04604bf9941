import { getDb } from "@/db/client";
import { errorToResponse } from "@/lib/http/problem";
import { readForm } from "@/lib/http/read-form";
import { publicOrigin } from "@/lib/signing/public-url";
import { handleInboundSms } from "@/lib/subscriptions/handle-inbound-sms";

type Ctx = { params: Promise<{ projectID: string }> };

/**
 * Twilio's "A message comes in" webhook for a project's number (HTTP POST, form-encoded). Verified with
 * the project's auth token; answers empty TwiML, since Twilio itself replies to STOP/START.
 */
export async function POST(req: Request, ctx: Ctx) {
  try {
    const { projectID } = await ctx.params;
    const url = new URL(req.url);
    // Twilio signs the URL it was configured with; behind a proxy that is RELAY_PUBLIC_URL's origin.
    const signedUrl = publicOrigin(req) + url.pathname + url.search;
    const params = [...(await readForm(req))] as [string, string][];
    await handleInboundSms(getDb(), projectID, { url: signedUrl, params, signature: req.headers.get("x-twilio-signature") });
    return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', { status: 200, headers: { "content-type": "text/xml" } });
  } catch (err) {
    return errorToResponse(err);
  }
}
