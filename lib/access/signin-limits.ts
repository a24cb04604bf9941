import { BUDGETS } from "@/lib/http/budgets";
import { callerBucket } from "@/lib/http/client-address";
import { Invalid, RateLimited } from "@/lib/http/errors";
import { limitOrThrow } from "@/lib/http/rate-limit";
import { readForm } from "@/lib/http/read-form";
import { signInAddress } from "./sign-in-address";

/**
 * A sign-in mail request, counted per caller address and per recipient (the address as Auth.js will send to it), so nobody can
 * flood an inbox with sign-in mail. Both doors call it: the sign-in form's server action and next-auth's
 * own POST /api/auth/signin/nodemailer. Returns null when allowed, else the seconds to wait.
 */
export async function limitSignInMail(from: Request | Headers, email: string): Promise<number | null> {
  try {
    await assertSignInMailAllowed(from, email);
    return null;
  } catch (err) {
    if (err instanceof RateLimited) return Number(err.headers?.["retry-after"] ?? 60);
    throw err;
  }
}

export async function assertSignInMailAllowed(from: Request | Headers, email: string): Promise<void> {
  const req = from instanceof Request ? from : new Request("http://relay.invalid/", { headers: from });
  await limitOrThrow("signin:ip", callerBucket(req), BUDGETS.signInPerAddress(), "for sign-in mail from this address");
  // Counted as Auth.js will address the mail (an address it refuses is counted as sent, lower-cased).
  await limitOrThrow(
    "signin:email",
    (signInAddress(email) ?? email.trim().toLowerCase()).slice(0, 320),
    BUDGETS.signInPerRecipient(),
    "for sign-in mail to this address",
  );
}

/**
 * The one address a POST to next-auth's e-mail door asks mail for. Auth.js reads a JSON body and the last of
 * repeated fields while a form reader counts the first: a body holding `email=junk-N&email=victim` once
 * mailed the victim past every limit. Anything but a form with exactly one `email` field is refused (400).
 */
export async function signInFormAddress(request: Request): Promise<string> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded")
    throw new Invalid("A sign-in request is a form (application/x-www-form-urlencoded).");
  const emails = (await readForm(request)).getAll("email");
  if (emails.length !== 1) throw new Invalid("A sign-in request carries exactly one email field.");
  return emails[0]!;
}

/**
 * The per-recipient limit counted where the mail is addressed (the provider's sendVerificationRequest), on
 * the normalised address that receives it, whichever door asked: the doors' own count is the early,
 * friendly answer; this one is the bound no form trick gets round. Throws RateLimited past it.
 */
export async function assertSignInMailToAllowed(address: string): Promise<void> {
  await limitOrThrow(
    "signin:mail",
    address.slice(0, 320),
    BUDGETS.signInPerRecipient(),
    "for sign-in mail to this address",
  );
}
