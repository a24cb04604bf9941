import { handleAuthRequest } from "@/lib/access/auth-handler";
import { assertSignInMailAllowed, signInFormAddress } from "@/lib/access/signin-limits";
import { errorToResponse } from "@/lib/http/problem";

export async function GET(req: Request) {
  try {
    return await handleAuthRequest(req);
  } catch (err) {
    return errorToResponse(err);
  }
}

/** next-auth's own door for e-mail sign-in is limited like the sign-in form (429 problem+json past it). */
async function limitSignInMail(request: Request) {
  if (!new URL(request.url).pathname.endsWith("/signin/nodemailer")) return;
  await assertSignInMailAllowed(request, await signInFormAddress(request));
}

export async function POST(req: Request) {
  try {
    return await handleAuthRequest(req, limitSignInMail);
  } catch (err) {
    return errorToResponse(err);
  }
}
