import { BUDGETS } from "@/lib/http/budgets";
import { callerBucket } from "@/lib/http/client-address";
import { RateLimited } from "@/lib/http/errors";
import { limitOrThrow } from "@/lib/http/rate-limit";
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
