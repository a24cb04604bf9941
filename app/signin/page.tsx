import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { auth } from "@/lib/access/auth";
import { registrationMode } from "@/lib/access/registration";
import { buttonClass } from "@/components/ui/button";
import { ErrorBanner, inputClass } from "@/components/ui/states";
import { oauthProviderNames } from "@/lib/access/oauth-providers";
import { configuredOrigin } from "@/lib/http/public-origin";
import { safePath } from "@/lib/http/safe-path";
import { mailConfigured } from "@/lib/mail/mail-configured";
import { requestMagicLink, signInWithProvider } from "./actions";
import { AuthCard } from "./auth-card";

export const metadata: Metadata = { title: "Sign in" };

const MESSAGES: Record<string, string> = {
  InviteOnly:
    "This Relay is invite-only, and there is no pending invitation for that address. Ask a project admin to invite you.",
  AccessDenied:
    "This Relay is invite-only, and there is no pending invitation for that address. Ask a project admin to invite you.",
  Verification: "That sign-in link is invalid, expired or already used. Ask for a new one below.",
  BadEmail: "Enter a valid e-mail address.",
  MailNotConfigured:
    "Sign-in by e-mail is unavailable: mail is not configured on this server (SMTP_URL is not set). Ask the operator to configure it.",
  Configuration: "Sign-in is not configured correctly (the mail could not be sent). Check SMTP_URL.",
  EmailSignInError: "We could not send the sign-in mail. Try again in a moment.",
  TooManyRequests:
    "Too many sign-in mails were asked for this address or from your network. Wait a while, then ask again.",
  OAuthAccountNotLinked: "That address already signs in another way. Use the e-mail link instead.",
  UnverifiedEmail:
    "Your account's e-mail address is not verified by that provider. Verify it there, or use the e-mail link instead.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const params = await searchParams;
  const landing = safePath(params.callbackUrl, configuredOrigin() ?? undefined);
  if (await auth()) redirect(landing);
  // Said up front, before anyone types an address into a form that cannot send.
  const error = !mailConfigured()
    ? MESSAGES.MailNotConfigured!
    : params.error
      ? (MESSAGES[params.error] ?? "Sign-in failed. Try again.")
      : null;
  return (
    <AuthCard title="Sign in to your console">
      <p className="mt-1 text-sm text-zinc-500">We'll e-mail you a link. No password needed.</p>
      {error && <ErrorBanner className="mt-4" message={error} />}
      <form action={requestMagicLink} className="mt-5 space-y-4">
        <input type="hidden" name="callbackUrl" value={landing} />
        <div>
          <label htmlFor="email" className="block text-sm font-medium text-zinc-700">
            Work e-mail
          </label>
          <input
            id="email"
            name="email"
            type="email"
            required
            autoFocus
            autoComplete="email"
            placeholder="you@company.com"
            className={`${inputClass} mt-1`}
          />
        </div>
        <button type="submit" className={`${buttonClass("primary")} w-full`}>
          Email me a sign-in link
        </button>
      </form>
      {oauthProviderNames().length > 0 && (
        <div className="mt-5 space-y-2 border-t border-zinc-100 pt-5">
          {oauthProviderNames().map((p) => (
            <form key={p.id} action={signInWithProvider}>
              <input type="hidden" name="provider" value={p.id} />
              <input type="hidden" name="callbackUrl" value={landing} />
              <button type="submit" className={`${buttonClass("secondary")} w-full`}>
                Continue with {p.name}
              </button>
            </form>
          ))}
        </div>
      )}
      {registrationMode() === "invite_only" && (
        <p className="mt-4 text-xs text-zinc-500">
          New here? This deployment is invite-only: sign in with the address you were invited at.
        </p>
      )}
    </AuthCard>
  );
}
