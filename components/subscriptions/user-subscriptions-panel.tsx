"use client";
import { useState } from "react";
import type { UserSubscriptionView } from "@/lib/subscriptions/schemas";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { Banner } from "@/components/ui/states";
import { POLICY_LABELS, SOURCE_LABELS, StateBadge } from "./labels";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * A user's state in every group with its history, changeable from the console (recorded as source
 * `console`). Meant for the user's page; the subscriptions page shows it for a looked-up user.
 */
export function UserSubscriptionsPanel({ projectId, userId }: { projectId: string; userId: string }) {
  const q = useQuery({
    queryKey: ["admin", projectId, `/users/${userId}/subscriptions`],
    queryFn: () =>
      apiFetch<{ subscriptions: UserSubscriptionView[] }>(adminPath(projectId, `/users/${userId}/subscriptions`)),
  });
  const [error, setError] = useState<string | null>(null);
  const change = async (group: string, state: string) => {
    setError(null);
    try {
      await apiFetch(adminPath(projectId, `/users/${userId}/subscriptions`), {
        method: "PUT",
        body: { subscriptions: [{ group, state: state === "" ? null : state }] },
      });
      await q.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (q.isPending) return <p className="text-sm text-zinc-500">Loading…</p>;
  if (!q.data) return <Banner tone="error">{q.error?.message ?? "Could not load."}</Banner>;
  if (!q.data.subscriptions.length)
    return <p className="text-sm text-zinc-500">This project has no subscription groups yet.</p>;
  return (
    <div className="space-y-3">
      {error ? <Banner tone="error">{error}</Banner> : null}
      <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200">
        {q.data.subscriptions.map((s) => (
          <li key={s.group_id} className="p-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div>
                <p className="text-sm font-medium text-zinc-900">
                  {s.group} <span className="font-normal text-zinc-400">· {s.channel}</span>
                </p>
                <p className="mt-0.5 text-xs text-zinc-500">
                  Sending: <StateBadge state={s.effective_state} />{" "}
                  {s.state === null ? `(unset: ${POLICY_LABELS[s.effective_policy].toLowerCase()})` : null}
                  {s.channel_opted_out ? " · replied STOP to SMS" : null}
                </p>
              </div>
              <label className="text-sm text-zinc-600">
                <span className="sr-only">State of {s.group}</span>
                <select
                  value={s.state ?? ""}
                  onChange={(e) => change(s.group_id, e.target.value)}
                  className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus:outline-none focus:ring-2 focus:ring-indigo-500/40"
                >
                  <option value="">Unset</option>
                  <option value="subscribed">Subscribed</option>
                  <option value="unsubscribed">Unsubscribed</option>
                </select>
              </label>
            </div>
            {s.history.length ? (
              <details className="mt-2 text-sm">
                <summary className="cursor-pointer text-xs font-medium text-indigo-600">
                  History ({s.history.length})
                </summary>
                <ol className="mt-2 space-y-1">
                  {s.history.map((h, i) => (
                    <li key={i} className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
                      <time dateTime={h.at} className="text-zinc-400">
                        {when(h.at)}
                      </time>
                      <StateBadge state={h.previous_state} /> → <StateBadge state={h.state} />
                      <span>
                        {SOURCE_LABELS[h.source] ?? h.source}
                        {h.detail.scope === "channel" ? " (whole SMS channel)" : ""}
                      </span>
                    </li>
                  ))}
                </ol>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
