import { plainPage } from "@/app/_components/plain-page";
import { publicRoute } from "@/lib/http/public-route";
import { followLink } from "@/lib/links/follow-link";
import { readLinkToken } from "@/lib/links/tokens";
import { log } from "@/lib/observability/logger";

type Params = { token: string };

// Re-serialized: the WHATWG parser percent-encodes anything a header may not carry.
const redirect = (url: string) =>
  new Response(null, {
    status: 302,
    headers: { location: new URL(url).href, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
const dead = () =>
  plainPage(
    404,
    "This link is not valid",
    "The link may have been copied incompletely or changed. Nothing was opened.",
  );

/** A followed tracked link: redirect and record `link.clicked`. A click that fails to record still redirects. */
export const GET = publicRoute<Params>(async (req, { db, params }) => {
  const url = readLinkToken(params.token)?.url;
  if (!url) return dead();
  await followLink({ db }, { token: params.token, record: true, userAgent: req.headers.get("user-agent") }).catch(
    (err) => {
      log.error({ err }, "could not record link.clicked");
    },
  );
  return redirect(url);
});

/** Link checkers and mail scanners send HEAD: same answer, no click recorded. */
export const HEAD = publicRoute<Params>(async (_req, { db, params }) => {
  const url = await followLink({ db }, { token: params.token, record: false });
  return url ? redirect(url) : dead();
});
