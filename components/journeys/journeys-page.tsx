"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { roleAtLeast } from "@/lib/access/roles";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { formatRelative } from "@/components/ui/format";
import { Badge, Card, EmptyState } from "@/components/ui/states";
import { QueryPage } from "@/components/ui/query-state";
import type { Journey } from "@/components/console/api-types";

/** Journeys and their entrances; each opens its editor and entries. */
export function JourneysPage() {
  const project = useProject();
  const q = useQuery({
    queryKey: ["journeys", project.id],
    queryFn: () => apiFetch<{ data: Journey[] }>(adminPath(project.id, "/journeys?limit=500")),
  });
  const newJourney = roleAtLeast(project.role, "editor") ? (
    <Link href={`/projects/${project.id}/journeys/new`} className={buttonClass()}>
      New journey
    </Link>
  ) : undefined;
  return (
    <QueryPage
      title="Journeys"
      description="Automated flows and what lets users in: an event (with an optional condition) or a schedule offset firing."
      actions={newJourney}
      q={q}
      what="journeys"
    >
      {(data) =>
        data.data.length === 0 ? (
          <EmptyState title="No journeys yet" action={newJourney}>
            A journey starts when an event arrives or a schedule offset fires.
          </EmptyState>
        ) : (
          <div className="grid gap-4 md:grid-cols-2">
            {data.data.map((j) => (
              <Card key={j.id} className="p-5">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="font-medium text-zinc-900">
                    <Link
                      href={`/projects/${project.id}/journeys/${j.id}`}
                      className="hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                    >
                      {j.name}
                    </Link>
                  </h2>
                  <span className="text-xs text-zinc-400">{formatRelative(j.updated_at)}</span>
                </div>
                <p className="mt-1 text-xs text-zinc-500">
                  {j.allow_multiple_entries ? "Users may enter again" : "One entry per user"} ·{" "}
                  {j.allow_concurrent_runs ? "concurrent runs allowed" : "no concurrent runs"}
                </p>
                <ul className="mt-4 space-y-2">
                  {j.entrances.map((e) => (
                    <li
                      key={e.id}
                      className="flex flex-wrap items-center gap-2 rounded-lg bg-zinc-50 px-3 py-2 text-sm"
                    >
                      <Badge tone={e.kind === "event" ? "indigo" : "amber"}>{e.kind}</Badge>
                      {e.kind === "event" ? (
                        <code className="font-mono text-xs text-zinc-800">{e.event_name}</code>
                      ) : (
                        <span className="text-zinc-600">schedule offset fires</span>
                      )}
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
    </QueryPage>
  );
}
