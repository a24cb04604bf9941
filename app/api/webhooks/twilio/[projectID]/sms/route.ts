import { publicRoute } from "@/lib/http/public-route";
import { readTwilioRequest } from "@/lib/http/twilio-request";
import { handleInboundSms } from "@/lib/subscriptions/handle-inbound-sms";
import { systemContext } from "@/lib/access/context";

type Params = { projectID: string };

/** Twilio's "A message comes in" webhook (form-encoded POST); answers empty TwiML since Twilio itself replies to STOP/START. */
export const POST = publicRoute<Params>(async (req, { db, params }) => {
  await handleInboundSms(systemContext(db, params.projectID), await readTwilioRequest(req));
  return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', {
    status: 200,
    headers: { "content-type": "text/xml" },
  });
});
