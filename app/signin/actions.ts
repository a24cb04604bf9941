"use server";
import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { EMAIL_MAX_LENGTH, isEmailAddress } from "@/lib/http/email-address";
import { limitSignInMail } from "@/lib/access/signin-limits";
import { signIn, signOut } from "@/lib/access/auth";
import { configuredOrigin } from "@/lib/http/public-origin";
import { safePath as safeTarget } from "@/lib/http/safe-path";
import { mailConfigured } from "@/lib/mail/mail-configured";

/** Only paths on our own origin are allowed as the place to land after signing in. */
const safePath = (value: FormDataEntryValue | null) => safeTarget(value, configuredOrigin() ?? undefined);

export async function requestMagicLink(formData: FormData) {
  const raw = formData.get("email");
  // The shared check bounds the length before any pattern runs (a crafted address once stalled this door).
  const email = typeof raw === "string" && raw.length <= EMAIL_MAX_LENGTH + 64 ? raw.trim() : "";
  if (!isEmailAddress(email)) redirect(`/signin?error=BadEmail`);
  // Sign-in mail is sent on the request (the person retries at once); without SMTP say so, not a 500.
  if (!mailConfigured()) redirect(`/signin?error=MailNotConfigured`);
  const limited = await limitSignInMail(await headers(), email);
  if (limited) redirect(`/signin?error=TooManyRequests&retry=${limited}`);
  try {
    await signIn("nodemailer", { email, redirectTo: safePath(formData.get("callbackUrl")) });
  } catch (err) {
    // signIn() ends by throwing Next's redirect; only next-auth's own errors are turned into a message.
    if (err instanceof AuthError) redirect(`/signin?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
}

export async function signOutAction() {
  await signOut({ redirectTo: "/signin" });
}

export async function signInWithProvider(formData: FormData) {
  const provider = String(formData.get("provider") ?? "");
  try {
    await signIn(provider, { redirectTo: safePath(formData.get("callbackUrl")) });
  } catch (err) {
    if (err instanceof AuthError) redirect(`/signin?error=${encodeURIComponent(err.type)}`);
    throw err;
  }
}
