import { getDb } from "@/db/client";
import { errorToResponse } from "@/lib/http/problem";
import { json } from "@/lib/http/with-project";
import { readForm } from "@/lib/http/read-form";
import { unsubscribeByToken } from "@/lib/subscriptions/unsubscribe-by-token";
import { unsubscribePagePath } from "@/lib/subscriptions/tokens";

type Ctx = { params: Promise<{ token: string }> };

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/**
 * The signed unsubscribe URL that goes in `List-Unsubscribe`. GET (a person's click, or a link scanner)
 * changes nothing and shows the confirmation page; POST unsubscribes: RFC 8058 one-click from mail
 * clients (`List-Unsubscribe=One-Click`), or the page's button (`from=page`, answered with a redirect).
 */
export async function GET(_req: Request, ctx: Ctx) {
  return seeOther(unsubscribePagePath((await ctx.params).token));
}
export const HEAD = GET;

export async function POST(req: Request, ctx: Ctx) {
  const { token } = await ctx.params;
  let fromPage = false;
  try {
    fromPage = (await readForm(req)).get("from") === "page";
    const result = await unsubscribeByToken(getDb(), token, fromPage ? "unsubscribe_page" : "one_click");
    if (fromPage) return seeOther(`${unsubscribePagePath(token)}?done=1`);
    return json({ unsubscribed: true, group: result.group, changed: result.changed });
  } catch (err) {
    if (fromPage) return seeOther(`${unsubscribePagePath(token)}?error=1`);
    return errorToResponse(err);
  }
}
