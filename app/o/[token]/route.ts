import { clientAddress } from "@/lib/http/client-address";
import { publicRoute } from "@/lib/http/public-route";
import { log } from "@/lib/observability/logger";
import { recordOpen } from "@/lib/reports/record-open";

type Params = { token: string };

// A 1×1 transparent GIF.
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const gif = () =>
  new Response(PIXEL, {
    status: 200,
    headers: {
      "content-type": "image/gif",
      "cache-control": "no-store, no-cache, must-revalidate, private",
      "x-content-type-options": "nosniff",
    },
  });

/**
 * A message's open pixel. Every answer is the same image, whatever the token, so a mail never shows a
 * broken image; only an intact token records anything, and an open that fails to record still answers.
 */
export const GET = publicRoute<Params>(async (req, { db, params }) => {
  await recordOpen(
    { db },
    { token: params.token, userAgent: req.headers.get("user-agent"), ip: clientAddress(req) },
  ).catch((err) => log.error({ err }, "could not record an open"));
  return gif();
});
