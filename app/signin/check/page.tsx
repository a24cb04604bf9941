import type { Metadata } from "next";
import Link from "next/link";
import { outboxEnabled } from "@/lib/mail/outbox";
import { AuthCard } from "../auth-card";

export const metadata: Metadata = { title: "Check your e-mail" };

export default function CheckEmailPage() {
  return (
    <AuthCard title="Check your e-mail">
      <p className="mt-2 text-sm text-zinc-600">
        We sent you a sign-in link. Open it on this device and confirm to finish signing in. The link works once, for 24
        hours.
      </p>
      {outboxEnabled() && process.env.NODE_ENV !== "production" && !process.env.SMTP_URL && (
        <p className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Development: no SMTP_URL is set, so mail goes to the{" "}
          <Link href="/dev/outbox" className="font-medium underline">
            local outbox
          </Link>
          .
        </p>
      )}
      <Link href="/signin" className="mt-5 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500">
        Use a different address
      </Link>
    </AuthCard>
  );
}
