"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { patchRows, useOptimisticMutation } from "@/components/console/optimistic";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import {
  Badge,
  Card,
  EmptyState,
  ErrorBanner,
  LoadingRows,
  tableClass,
  tdClass,
  TableHead,
} from "@/components/ui/states";
import type { Assignment, Schedule } from "@/components/console/api-types";
export type { Assignment };

const PAUSE = [
  { mode: "immediately", label: "Pause now", help: "Deletes every unfired firing of this assignment." },
  {
    mode: "after_next_interval",
    label: "Pause after this cycle",
    help: "Lets the current cycle fire, then stops advancing.",
  },
];
const RESUME = [
  {
    mode: "immediately",
    label: "Resume now",
    help: "Rebases the anchor to now and fires the first occurrence at once.",
  },
  {
    mode: "at_next_interval",
    label: "Resume at next interval",
    help: "Keeps the anchor; fires at the next occurrence after now.",
  },
];

/** A schedule's assignments with state and next firing; pause and resume with either mode. */
export function AssignmentsPanel({ schedule, canEdit }: { schedule: Schedule; canEdit: boolean }) {
  const project = useProject();
  const [state, setState] = useState<"" | "active" | "paused" | "fired">("");
  const [acting, setActing] = useState<Assignment | null>(null);
  const key = ["assignments", project.id, schedule.id, state];
  const q = useInfiniteQuery({
    queryKey: key,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const p = new URLSearchParams({ limit: "50" });
      if (state) p.set("state", state);
      if (pageParam) p.set("cursor", pageParam);
      return apiFetch<{ data: Assignment[]; next_cursor: string | null }>(
        adminPath(project.id, `/schedules/${schedule.id}/assignments?${p}`),
      );
    },
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval: 15_000,
  });
  const rows = q.data?.pages.flatMap((p) => p.data) ?? [];
  const pauseResume = usePauseResume(["assignments", project.id, schedule.id]);
  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-100 px-5 py-3">
        <h2 className="text-sm font-semibold text-zinc-900">
          Assignments of <span className="font-mono">{schedule.name}</span>
        </h2>
        <div role="group" aria-label="Filter by state" className="flex gap-1">
          {(["", "active", "paused", "fired"] as const).map((s) => (
            <button
              key={s || "all"}
              type="button"
              aria-pressed={state === s}
              onClick={() => setState(s)}
              className={`rounded-md px-2 py-1 text-xs font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${state === s ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100"}`}
            >
              {s || "all"}
            </button>
          ))}
        </div>
      </div>
      {pauseResume.error && (
        <div className="px-5 pt-3">
          <ErrorBanner message={pauseResume.error} />
        </div>
      )}
      {q.isPending && (
        <div className="p-5">
          <LoadingRows rows={3} label="Loading assignments" />
        </div>
      )}
      {q.isError && (
        <div className="p-5">
          <ErrorBanner message={q.error.message} />
        </div>
      )}
      {q.isSuccess && rows.length === 0 && (
        <div className="p-5">
          <EmptyState title="No assignments">
            Assign with <code className="font-mono text-xs">POST /users/scheduled</code> or{" "}
            <code className="font-mono text-xs">/organizations/scheduled</code>.
          </EmptyState>
        </div>
      )}
      {rows.length > 0 && (
        <table className={tableClass}>
          <TableHead columns={["For", "State", "Timing", "Next firing"]} actions />
          <tbody className="divide-y divide-zinc-100">
            {rows.map((a) => (
              <tr key={a.id}>
                <td className={tdClass}>
                  <Link
                    className="text-indigo-600 hover:underline"
                    href={`/projects/${project.id}/${a.user_id ? "users" : "organizations"}/${a.user_id ?? a.organization_id}`}
                    title={(a.user_id ?? a.organization_id)!}
                  >
                    {a.subject_label ?? `${a.user_id ? "user" : "organization"} (erased)`}
                  </Link>
                  <span className="ml-1 text-xs text-zinc-400">{a.user_id ? "user" : "organization"}</span>
                </td>
                <td className={tdClass}>
                  <Badge tone={a.state === "active" ? "green" : a.state === "paused" ? "amber" : "zinc"}>
                    {a.state}
                  </Badge>
                  {a.pause_mode && (
                    <span className="block text-xs text-zinc-500">{a.pause_mode.replaceAll("_", " ")}</span>
                  )}
                  {a.skipped > 0 && <span className="block text-xs text-red-600">{a.skipped} skipped as late</span>}
                </td>
                <td className={`${tdClass} text-zinc-500`}>
                  {a.interval ? (
                    `every ${a.interval}`
                  ) : (
                    <>
                      once<span className="block text-xs">{formatDateTime(a.occurrence_at)}</span>
                    </>
                  )}
                </td>
                <td className={`${tdClass} whitespace-nowrap text-zinc-500`} title={formatDateTime(a.next_fire_at)}>
                  {a.next_fire_at ? formatRelative(a.next_fire_at) : "—"}
                </td>
                <td className={`${tdClass} text-right`}>
                  {canEdit && a.interval && a.state !== "fired" && (
                    <Button variant="secondary" size="sm" onClick={() => setActing(a)}>
                      {a.state === "paused" ? "Resume…" : "Pause…"}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {q.hasNextPage && (
        <div className="flex justify-center p-3">
          <Button variant="secondary" onClick={() => q.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
      <PauseResumeDialog assignment={acting} onClose={() => setActing(null)} onChoose={pauseResume.choose} />
    </Card>
  );
}

export type PauseResume = { state: "active" | "paused"; mode: string };

/** The pause and resume choices. It closes on a choice: the caller applies it optimistically (usePauseResume). */
export function PauseResumeDialog({
  assignment,
  onClose,
  onChoose,
}: {
  assignment: Assignment | null;
  onClose: () => void;
  onChoose: (a: Assignment, change: PauseResume) => void;
}) {
  const resuming = assignment?.state === "paused";
  const choices = resuming ? RESUME : PAUSE;
  return (
    <Dialog open={assignment !== null} onClose={onClose} title={resuming ? "Resume assignment" : "Pause assignment"}>
      <div className="space-y-2">
        {choices.map((c) => (
          <button
            key={c.mode}
            type="button"
            onClick={() => {
              onChoose(assignment!, { state: resuming ? "active" : "paused", mode: c.mode });
              onClose();
            }}
            className="block w-full rounded-lg border border-zinc-200 px-4 py-3 text-left hover:border-indigo-300 hover:bg-indigo-50/50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <span className="block text-sm font-medium text-zinc-900">{c.label}</span>
            <span className="block text-xs text-zinc-500">{c.help}</span>
          </button>
        ))}
      </div>
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * Pause or resume an assignment, shown at once in every cached view under `queryKey` (the schedule's
 * assignment pages, or a profile) and rolled back with the server's reason if it refuses.
 */
export function usePauseResume(queryKey: readonly unknown[]) {
  const project = useProject();
  const [error, setError] = useState<string | null>(null);
  const m = useOptimisticMutation({
    queryKey,
    mutationFn: ({ a, change }: { a: Assignment; change: PauseResume }) =>
      apiFetch(adminPath(project.id, `/schedules/${a.schedule_id}/assignments/${a.id}`), {
        method: "PATCH",
        body: change,
      }),
    apply: (old, { a, change }) =>
      patchRows<Assignment>(
        old,
        (r) => r.id === a.id,
        (r) => ({
          ...r,
          state: change.state,
          pause_mode: change.state === "paused" ? (change.mode as Assignment["pause_mode"]) : null,
        }),
      ),
  });
  const choose = (a: Assignment, change: PauseResume) => {
    setError(null);
    m.mutate(
      { a, change },
      { onError: (e) => setError(`Not ${change.state === "paused" ? "paused" : "resumed"}: ${e.message}`) },
    );
  };
  return { choose, error, clearError: () => setError(null) };
}
