"use client";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Delivery, Destination, Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { Badge, EmptyState, ErrorBanner, tdClass, TableCard } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";

const STATES = ["", "pending", "delivered", "failed"] as const;

export function DeliveryLog({ destination, canWrite }: { destination: Destination; canWrite: boolean }) {
  const project = useProject();
  const qc = useQueryClient();
  const [state, setState] = useState<(typeof STATES)[number]>("");
  const key = ["deliveries", project.id, destination.id, state];
  const q = useInfiniteQuery({
    queryKey: key,
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      apiFetch<Page<Delivery>>(
        adminPath(
          project.id,
          `/destinations/${destination.id}/deliveries?limit=25${state ? `&state=${state}` : ""}${pageParam ? `&cursor=${pageParam}` : ""}`,
        ),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 5_000,
  });
  const retry = useMutation({
    mutationFn: (d: Delivery) =>
      apiFetch(adminPath(project.id, `/destinations/${destination.id}/deliveries/${d.id}/retry`), { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["deliveries", project.id, destination.id] }),
  });
  const rows = q.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-label={`Delivery log of ${destination.name}`} className="mt-8">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
        <h2 className="text-base font-semibold text-zinc-900">Delivery log: {destination.name}</h2>
        <label className="text-sm text-zinc-600">
          State{" "}
          <select
            value={state}
            onChange={(e) => setState(e.target.value as (typeof STATES)[number])}
            className="ml-1 rounded-md border border-zinc-300 px-2 py-1 text-sm"
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s || "all"}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryStatus q={q} what="deliveries" />
      {retry.isError && <ErrorBanner message={retry.error.message} />}
      {q.data && rows.length === 0 && (
        <EmptyState title="No deliveries">
          Messages appear here when an event this destination takes arrives.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <TableCard className="overflow-x-auto" columns={["Event", "State", "Attempts", "Next attempt"]} actions>
          {rows.map((d) => (
            <tr key={d.id}>
              <td className={tdClass}>
                <div className="font-medium text-zinc-900">{d.event_name}</div>
                <code className="text-xs text-zinc-400">{d.webhook_id}</code>
                <span className="block text-xs text-zinc-500">{formatDateTime(d.created_at)}</span>
              </td>
              <td className={tdClass}>
                <Badge tone={d.state === "delivered" ? "green" : d.state === "failed" ? "red" : "amber"}>
                  {d.state}
                </Badge>
              </td>
              <td className={`${tdClass} text-xs`}>
                {d.attempts.length === 0 && <span className="text-zinc-400">Not attempted yet</span>}
                <ol className="space-y-1">
                  {d.attempts.map((a) => (
                    <li key={a.attempted_at}>
                      <span className={a.status && a.status < 300 ? "text-emerald-700" : "text-red-700"}>
                        {a.status ?? "no answer"}
                      </span>{" "}
                      <span className="text-zinc-500">
                        {a.latency_ms} ms · {formatDateTime(a.attempted_at)}
                      </span>
                      {(a.error || a.response) && (
                        <code className="block max-w-md truncate text-zinc-500" title={a.response ?? a.error ?? ""}>
                          {a.error ?? a.response}
                        </code>
                      )}
                    </li>
                  ))}
                </ol>
              </td>
              <td className={`${tdClass} text-xs text-zinc-500`}>
                {d.next_attempt_at ? formatRelative(d.next_attempt_at) : "—"}
              </td>
              <td className={`${tdClass} text-right`}>
                {canWrite && (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={retry.isPending}
                    onClick={() => retry.mutate(d)}
                    aria-label={`Retry ${d.event_name} ${d.webhook_id}`}
                  >
                    Retry
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      {q.hasNextPage && (
        <div className="mt-3 flex justify-center">
          <Button variant="secondary" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </section>
  );
}
