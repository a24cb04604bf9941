import { publicOrigin } from "@/lib/http/public-origin";

/**
 * Where the confirmation form sends the browser: next-auth's e-mail callback with only the link's own
 * parameters. Null for a cross-site POST (the Origin header names another host), so another site cannot
 * sign a visitor in with the attacker's link.
 */
export function magicLinkCallback(req: Request, form: FormData): string | null {
  const origin = req.headers.get("origin");
  if (origin && origin !== "null" && origin !== publicOrigin(req)) return null;
  const params = new URLSearchParams();
  for (const name of ["callbackUrl", "token", "email"]) {
    const v = form.get(name);
    if (typeof v === "string" && v) params.set(name, v);
  }
  return `${publicOrigin(req)}/api/auth/callback/nodemailer?${params}`;
}
