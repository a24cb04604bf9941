import { readForm } from "@/lib/http/read-form";
import { publicRoute } from "@/lib/http/public-route";
import { json } from "@/lib/http/with-project";
import { unsubscribeByToken } from "@/lib/subscriptions/unsubscribe-by-token";
import { unsubscribePagePath } from "@/lib/subscriptions/tokens";

type Params = { token: string };

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/**
 * The signed unsubscribe URL that goes in `List-Unsubscribe`. GET (a person's click, or a link scanner)
 * changes nothing and shows the confirmation page; POST unsubscribes: RFC 8058 one-click from mail
 * clients (`List-Unsubscribe=One-Click`), or the page's button (`from=page`, answered with a redirect).
 */
export const GET = publicRoute<Params>(async (_req, { params }) => seeOther(unsubscribePagePath(params.token)));
export const HEAD = GET;

export const POST = publicRoute<Params>(async (req, { db, params }) => {
  const fromPage = (await readForm(req)).get("from") === "page";
  try {
    const result = await unsubscribeByToken(
      { db },
      { token: params.token, source: fromPage ? "unsubscribe_page" : "one_click" },
    );
    if (fromPage) return seeOther(`${unsubscribePagePath(params.token)}?done=1`);
    return json({ unsubscribed: true, group: result.group, changed: result.changed });
  } catch (err) {
    if (fromPage) return seeOther(`${unsubscribePagePath(params.token)}?error=1`);
    throw err;
  }
});
