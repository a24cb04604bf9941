import { publicOrigin } from "@/lib/http/public-origin";
import { safePath } from "@/lib/http/safe-path";

/**
 * Where the confirmation form sends the browser: next-auth's e-mail callback on the public origin, with
 * only the link's own parameters (its callbackUrl reduced to a path of ours). Null for a POST that is not
 * same-site: an Origin naming another host, `Origin: null` (sandboxed frames, data: URLs and some
 * cross-site redirects send it; a page of ours never does), or Fetch Metadata saying cross-site. Otherwise
 * another site could sign a visitor in as the attacker (login CSRF) with the attacker's link.
 */
export function magicLinkCallback(req: Request, form: URLSearchParams | FormData): string | null {
  const origin = publicOrigin(req);
  if (crossSite(req)) return null;
  const params = new URLSearchParams();
  for (const name of ["callbackUrl", "token", "email"]) {
    const v = form.get(name);
    if (typeof v === "string" && v) params.set(name, name === "callbackUrl" ? safePath(v, origin) : v);
  }
  return `${origin}/api/auth/callback/nodemailer?${params}`;
}

/**
 * Whether a request that would sign a browser in comes from another site: an `Origin` other than ours
 * (`null` included), or Fetch Metadata saying `cross-site` or `same-site` (a sibling subdomain is another
 * site's code too). Our own confirmation form posts same-origin and its 303 to the callback stays
 * same-origin; a link typed or pasted into the address bar says `none`. Browsers that send neither header
 * pass: the token itself, and SameSite cookies, still protect them.
 */
export function crossSite(req: Request): boolean {
  const from = req.headers.get("origin");
  if (from !== null && from !== publicOrigin(req)) return true;
  const site = req.headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}
