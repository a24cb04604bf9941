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
  const from = req.headers.get("origin");
  if (from !== null && from !== origin) return null;
  if (req.headers.get("sec-fetch-site") === "cross-site") return null;
  const params = new URLSearchParams();
  for (const name of ["callbackUrl", "token", "email"]) {
    const v = form.get(name);
    if (typeof v === "string" && v) params.set(name, name === "callbackUrl" ? safePath(v, origin) : v);
  }
  return `${origin}/api/auth/callback/nodemailer?${params}`;
}
