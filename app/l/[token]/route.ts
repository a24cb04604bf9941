import { plainPage } from "@/app/_components/plain-page";
import { getDb } from "@/db/client";
import { followLink } from "@/lib/links/follow-link";
import { errorToResponse } from "@/lib/http/problem";
import { readLinkToken } from "@/lib/links/tokens";

type Ctx = { params: Promise<{ token: string }> };

const redirect = (url: string) => new Response(null, { status: 302, headers: { location: url, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
const dead = () => plainPage(404, "This link is not valid", "The link may have been copied incompletely or changed. Nothing was opened.");

/** A followed tracked link: redirect and record `link.clicked`. A link that fails to record still redirects. */
export async function GET(req: Request, ctx: Ctx): Promise<Response> {
  try {
    const { token } = await ctx.params;
    const url = readLinkToken(token)?.url;
    if (!url) return dead();
    await followLink(getDb(), token, { record: true, userAgent: req.headers.get("user-agent") }).catch((err) => {
      console.error("[links] could not record link.clicked", err);
    });
    return redirect(url);
  } catch (err) {
    return errorToResponse(err);
  }
}

/** Link checkers and mail scanners send HEAD: same answer, no click recorded. */
export async function HEAD(_req: Request, ctx: Ctx): Promise<Response> {
  try {
    const url = await followLink(getDb(), (await ctx.params).token, { record: false });
    return url ? redirect(url) : dead();
  } catch (err) {
    return errorToResponse(err);
  }
}
