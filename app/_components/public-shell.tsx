import type { ReactNode } from "react";

/** The frame of the pages end users see (unsubscribe, preference center): no console chrome, no account. */
export function PublicShell({ project, children }: { project?: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-zinc-50 px-4 py-10 sm:py-16">
      <main className="w-full max-w-xl">
        <p className="mb-4 text-center text-sm font-semibold tracking-tight text-zinc-500">{project ?? "Relay"}</p>
        <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
        <p className="mt-6 text-center text-xs text-zinc-400">
          Sent with Relay · You don’t need an account to change these settings.
        </p>
      </main>
    </div>
  );
}

export function Notice({ tone, children }: { tone: "success" | "error" | "info"; children: ReactNode }) {
  const styles = {
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
    error: "border-red-200 bg-red-50 text-red-900",
    info: "border-amber-200 bg-amber-50 text-amber-900",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`mb-6 rounded-lg border px-4 py-3 text-sm ${styles}`}>
      {children}
    </div>
  );
}

export function ChannelBadge({ channel }: { channel: string }) {
  const label = { email: "Email", sms: "SMS", push: "Push" }[channel] ?? channel;
  return (
    <span className="inline-flex items-center rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-600">
      {label}
    </span>
  );
}

export function InvalidLink({ what }: { what: string }) {
  return (
    <PublicShell>
      <h1 className="text-xl font-semibold text-zinc-900">{`This ${what} link is not valid`}</h1>
      <p className="mt-3 text-sm leading-6 text-zinc-600">
        It may have been copied incompletely, or the subscription it points to no longer exists. Nothing was changed.
        Use the link from a more recent message, or reply to the sender.
      </p>
    </PublicShell>
  );
}
