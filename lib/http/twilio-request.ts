import type { TwilioRequest } from "@/lib/subscriptions/twilio-signature";
import { publicOrigin } from "./public-origin";
import { readForm } from "./read-form";

/**
 * A Twilio webhook's form-encoded POST, ready for its signature check. Twilio signs the exact URL it was
 * configured with: normally the public origin (AUTH_URL); req.url's own origin is tried last, for a webhook
 * configured with the internal address. The URLs are only verified, never emitted.
 */
export async function readTwilioRequest(req: Request): Promise<TwilioRequest> {
  const url = new URL(req.url);
  const tail = url.pathname + url.search;
  return {
    urls: [...new Set([publicOrigin(req) + tail, url.origin + tail])],
    params: [...(await readForm(req))] as [string, string][],
    signature: req.headers.get("x-twilio-signature"),
  };
}
