"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, controlClass, PageHeader } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import { Dialog } from "@/components/ui/dialog";
import { EventTraceView } from "@/components/explain/event-trace";
import type { EventListItem } from "@/components/console/api-types";
import { EventList } from "./event-list";
import { FanoutsCard } from "./fanouts-card";

const POLL_MS = 2_000;

/** The live event stream: the newest 100 events, polled every 2 s while live; filter by name, user or organization. */
export function EventsPage() {
  const project = useProject();
  const router = useRouter();
  const search = useSearchParams();
  const filters = {
    name: search.get("name") ?? "",
    user_id: search.get("user_id") ?? "",
    organization_id: search.get("organization_id") ?? "",
  };
  const [name, setName] = useState(filters.name);
  const [live, setLive] = useState(true);
  const seen = useRef<Set<string> | null>(null);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const params = new URLSearchParams({ limit: "100" });
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
  const q = useQuery({
    queryKey: ["events", project.id, params.toString()],
    queryFn: () => apiFetch<{ data: EventListItem[] }>(adminPath(project.id, `/events?${params}`)),
    refetchInterval: live ? POLL_MS : false,
  });
  useEffect(() => {
    if (!q.data) return;
    const ids = q.data.data.map((e) => e.id);
    if (seen.current) setFresh(new Set(ids.filter((id) => !seen.current!.has(id))));
    seen.current = new Set(ids);
  }, [q.data]);
  const apply = (next: Partial<typeof filters>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filters, ...next })) if (v) p.set(k, v);
    seen.current = null;
    router.replace(`/projects/${project.id}/events${p.size ? `?${p}` : ""}`);
  };
  return (
    <>
      <PageHeader
        title="Live events"
        description="Everything recorded in this project, newest first. System events (user.created, scheduled.*, …) appear beside yours."
        actions={
          <Button variant={live ? "secondary" : "primary"} onClick={() => setLive((l) => !l)} aria-pressed={!live}>
            <span
              className={`h-2 w-2 rounded-full ${live ? "animate-pulse bg-emerald-500" : "bg-zinc-400"}`}
              aria-hidden
            />
            {live ? "Live" : "Paused"}
          </Button>
        }
      />
      <form
        role="search"
        className="mb-4 flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          apply({ name: name.trim() });
        }}
      >
        <input
          aria-label="Event name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Exact event name, e.g. order.completed"
          className={`${controlClass} min-w-64 flex-1 font-mono`}
        />
        <Button type="submit">Filter</Button>
        {(filters.name || filters.user_id || filters.organization_id) && (
          <Button
            variant="ghost"
            onClick={() => {
              setName("");
              apply({ name: "", user_id: "", organization_id: "" });
            }}
          >
            Clear filters
          </Button>
        )}
      </form>
      {(filters.user_id || filters.organization_id) && (
        <p className="mb-3 text-sm text-zinc-500">
          Showing events of one {filters.user_id ? "user" : "organization"} only.
        </p>
      )}
      <QueryStatus q={q} what="events" rows={6} />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No events yet">
          Events appear here a moment after your backend sends them{live ? "; this page refreshes every 2 seconds" : ""}
          .
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <Card className="overflow-hidden">
          <EventList events={q.data.data} projectId={project.id} fresh={fresh} />
        </Card>
      )}
      <FanoutsCard projectId={project.id} live={live} />
      <Dialog open={!!search.get("trace")} onClose={() => apply({})} title="Where this event went">
        {search.get("trace") && <EventTraceView projectId={project.id} eventId={search.get("trace")!} />}
      </Dialog>
    </>
  );
}
