import { handlers } from "@/lib/access/auth";
import { assertSignInMailAllowed } from "@/lib/access/signin-limits";
import { errorToResponse } from "@/lib/http/problem";
import { readForm } from "@/lib/http/read-form";

export const { GET } = handlers;

/** next-auth's own door for e-mail sign-in is limited like the sign-in form (429 problem+json past it). */
export async function POST(req: Request) {
  if (new URL(req.url).pathname.endsWith("/signin/nodemailer")) {
    try {
      const form = await readForm(req.clone());
      await assertSignInMailAllowed(req, form.get("email") ?? "");
    } catch (err) {
      return errorToResponse(err);
    }
  }
  return handlers.POST(req as Parameters<typeof handlers.POST>[0]);
}
