import type { ReactNode } from "react";

export const inputClass =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-zinc-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";
export const buttonClass =
  "inline-flex items-center justify-center rounded-md bg-zinc-900 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-zinc-700 disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2";
export const ghostButtonClass =
  "inline-flex items-center justify-center rounded-md px-2.5 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500";

export function Card({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-zinc-200 bg-white shadow-sm">
      <header className="border-b border-zinc-100 px-5 py-4">
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {description ? <p className="mt-0.5 text-sm text-zinc-500">{description}</p> : null}
      </header>
      <div className="p-5">{children}</div>
    </section>
  );
}

export function Banner({ tone, children }: { tone: "error" | "success"; children: ReactNode }) {
  const style = tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-800";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-3 py-2 text-sm ${style}`}>
      {children}
    </div>
  );
}

export function StateBadge({ state }: { state: string | null }) {
  const style = state === "subscribed" ? "bg-emerald-50 text-emerald-700 ring-emerald-200" : state === "unsubscribed" ? "bg-red-50 text-red-700 ring-red-200" : "bg-zinc-50 text-zinc-600 ring-zinc-200";
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style}`}>{state ?? "unset"}</span>;
}

export const SOURCE_LABELS: Record<string, string> = {
  client_api: "Client API",
  admin_api: "Admin API",
  console: "Console",
  one_click: "One-click unsubscribe",
  unsubscribe_page: "Unsubscribe page",
  preference_center: "Preference center",
  sms: "SMS keyword",
};

export const POLICY_LABELS = { opt_out: "Subscribed by default", opt_in: "Explicit opt-in" } as const;
