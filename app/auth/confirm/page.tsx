import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { AuthCard } from "../../signin/auth-card";

export const metadata: Metadata = { title: "Confirm sign-in", robots: { index: false } };

/** Opening this page changes nothing: the link's token is used only when the button is pressed. */
export default async function ConfirmPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { token, email, callbackUrl } = await searchParams;
  if (!token || !email) {
    return (
      <AuthCard title="This link is incomplete">
        <p className="mt-2 text-sm text-zinc-600">Copy the whole link from the e-mail, or ask for a new one.</p>
        <Link href="/signin" className={`${buttonClass("secondary")} mt-5`}>
          Back to sign-in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm sign-in">
      <p className="mt-2 text-sm text-zinc-600">
        Sign in to Relay as <strong className="font-medium text-zinc-900">{email}</strong>?
      </p>
      <form method="post" action="/auth/confirm/continue" className="mt-5">
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="callbackUrl" value={callbackUrl ?? "/projects"} />
        <button type="submit" autoFocus className={`${buttonClass("primary")} w-full`}>
          Sign in as {email}
        </button>
      </form>
      <p className="mt-4 text-xs text-zinc-500">
        Didn't ask to sign in? Close this page; nothing happens until you press the button.
      </p>
    </AuthCard>
  );
}
