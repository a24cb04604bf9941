"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { formatRelative } from "@/components/ui/format";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/states";
import { QueryState } from "./feature-state";

type Entrance = { id: string; kind: "event" | "scheduled"; event_name: string | null; condition: unknown; user_rule: unknown; schedule_id: string | null; schedule_offset_id: string | null; data_key: string };
type Journey = { id: string; name: string; allow_multiple_entries: boolean; allow_concurrent_runs: boolean; entrances: Entrance[]; updated_at: string };

/** Journeys and their entrances. Read-only: journeys are defined through the admin API. */
export function JourneysPage() {
  const project = useProject();
  const q = useQuery({ queryKey: ["journeys", project.id], queryFn: () => apiFetch<{ data: Journey[] }>(adminPath(project.id, "/journeys?limit=500")) });
  return (
    <>
      <PageHeader title="Journeys" description="Automated flows and what lets users in: an event (with an optional condition) or a schedule offset firing." />
      <QueryState q={q} what="journeys">
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title="No journeys yet">Create one with <code className="font-mono text-xs">POST /api/admin/projects/{project.id}/journeys</code>.</EmptyState>
          ) : (
            <div className="grid gap-4 md:grid-cols-2">
              {data.data.map((j) => (
                <Card key={j.id} className="p-5">
                  <div className="flex items-start justify-between gap-2">
                    <h2 className="font-medium text-zinc-900">{j.name}</h2>
                    <span className="text-xs text-zinc-400">{formatRelative(j.updated_at)}</span>
                  </div>
                  <p className="mt-1 text-xs text-zinc-500">
                    {j.allow_multiple_entries ? "Users may enter again" : "One entry per user"} · {j.allow_concurrent_runs ? "concurrent runs allowed" : "no concurrent runs"}
                  </p>
                  <ul className="mt-4 space-y-2">
                    {j.entrances.map((e) => (
                      <li key={e.id} className="flex flex-wrap items-center gap-2 rounded-lg bg-zinc-50 px-3 py-2 text-sm">
                        <Badge tone={e.kind === "event" ? "indigo" : "amber"}>{e.kind}</Badge>
                        {e.kind === "event" ? <code className="font-mono text-xs text-zinc-800">{e.event_name}</code> : <span className="text-zinc-600">schedule offset fires</span>}
                        {e.condition != null && <span className="text-xs text-zinc-500">with condition</span>}
                        {e.user_rule != null && <span className="text-xs text-zinc-500">· member rule</span>}
                        <span className="ml-auto font-mono text-xs text-zinc-400">journey.{e.data_key}</span>
                      </li>
                    ))}
                  </ul>
                </Card>
              ))}
            </div>
          )
        }
      </QueryState>
    </>
  );
}
