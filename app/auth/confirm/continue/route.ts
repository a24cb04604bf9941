import { magicLinkCallback } from "@/lib/access/magic-link";
import { errorToResponse } from "@/lib/http/problem";
import { readForm } from "@/lib/http/read-form";

/**
 * The POST that consumes a magic link: the confirmation page's form posts here, and only now is the
 * browser sent (303) to next-auth's callback with the token. A GET of the e-mailed /auth/confirm link
 * (a mail scanner, a link preview) never reaches this. The form is read bounded (64 KiB, 413 past it).
 */
export async function POST(req: Request): Promise<Response> {
  let form: URLSearchParams;
  try {
    form = await readForm(req);
  } catch (err) {
    return errorToResponse(err);
  }
  const target = magicLinkCallback(req, form);
  if (!target) return new Response("Cross-site sign-in confirmation refused.", { status: 403 });
  return new Response(null, { status: 303, headers: { location: target } });
}
