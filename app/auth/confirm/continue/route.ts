import { magicLinkCallback } from "@/lib/access/magic-link";

/**
 * The POST that consumes a magic link: the confirmation page's form posts here, and only now is the
 * browser sent (303) to next-auth's callback with the token. A GET of the e-mailed /auth/confirm link
 * (a mail scanner, a link preview) never reaches this.
 */
export async function POST(req: Request): Promise<Response> {
  const target = magicLinkCallback(req, await req.formData());
  if (!target) return new Response("Cross-site sign-in confirmation refused.", { status: 403 });
  return new Response(null, { status: 303, headers: { location: target } });
}
