"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import type { Page, TimelineItem } from "@/components/console/api-types";
import { TraceButton } from "./event-trace";

const DOT: Record<TimelineItem["kind"], string> = {
  event: "bg-indigo-500",
  list_added: "bg-emerald-500",
  list_removed: "bg-zinc-400",
  journey_entered: "bg-sky-500",
  journey_exited: "bg-sky-300",
  journey_step: "bg-sky-200",
  schedule_fired: "bg-amber-500",
  subscription_changed: "bg-fuchsia-500",
  delivery: "bg-teal-500",
  // Not red: a message sent is not an error.
  message: "bg-lime-500",
};
const KIND: Record<TimelineItem["kind"], string> = {
  event: "event",
  list_added: "list",
  list_removed: "list",
  journey_entered: "journey",
  journey_exited: "journey",
  journey_step: "journey",
  schedule_fired: "schedule",
  subscription_changed: "subscription",
  delivery: "delivery",
  message: "message",
};

/** A user's story, newest first, 25 items a page with "Show older". */
export function UserTimeline({ projectId, userId }: { projectId: string; userId: string }) {
  const q = useInfiniteQuery({
    queryKey: ["timeline", projectId, userId],
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      apiFetch<Page<TimelineItem>>(
        adminPath(projectId, `/users/${userId}/timeline?limit=25${pageParam ? `&cursor=${pageParam}` : ""}`),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (q.isPending) return <LoadingRows rows={5} label="Loading timeline" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const items = q.data.pages.flatMap((p) => p.data);
  if (!items.length) return <p className="text-sm text-zinc-400">Nothing has happened to this user yet.</p>;
  return (
    <div>
      <ol className="divide-y divide-zinc-100" aria-label="Timeline">
        {items.map((i) => (
          <li key={`${i.kind}-${i.id}`} className="flex items-start gap-3 py-2">
            <span className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${DOT[i.kind]}`} aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm text-zinc-900">
                <span className={i.kind === "event" || i.kind === "schedule_fired" ? "font-mono" : ""}>{i.title}</span>
              </p>
              <p className="text-xs text-zinc-500">
                {KIND[i.kind]}
                {i.kind.startsWith("list") && i.detail.cause === "event" ? " · caused by an event" : ""}
                {i.kind.startsWith("list") && i.detail.cause === "manual" ? " · by hand" : ""}
                {i.kind.startsWith("list") && i.detail.cause === "rebuild" ? " · list re-evaluated" : ""}
              </p>
            </div>
            {i.event_id && <TraceButton projectId={projectId} eventId={i.event_id} />}
            <time dateTime={i.at} title={formatDateTime(i.at)} className="shrink-0 text-xs text-zinc-500">
              {formatRelative(i.at)}
            </time>
          </li>
        ))}
      </ol>
      {q.hasNextPage && (
        <Button variant="secondary" size="sm" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? "Loading…" : "Show older"}
        </Button>
      )}
    </div>
  );
}
