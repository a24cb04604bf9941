"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { formatRelative } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/states";
import { QueryState } from "./feature-state";

type List = { id: string; name: string; kind: "dynamic" | "static"; rules: unknown; event_names: string[]; windowed: boolean; member_count: number; updated_at: string };

/** Lists with their rules and member counts. Read-only: lists are defined through the admin API. */
export function ListsPage() {
  const project = useProject();
  const q = useQuery({ queryKey: ["lists", project.id], queryFn: () => apiFetch<{ data: List[] }>(adminPath(project.id, "/lists?limit=500")), refetchInterval: 10_000 });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Lists" description="Segments of users: dynamic lists follow their rules as events arrive; static lists are managed by hand through the API." />
      <QueryState q={q} what="lists">
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title="No lists yet">Create one with <code className="font-mono text-xs">POST /api/admin/projects/{project.id}/lists</code>.</EmptyState>
          ) : (
            <Card>
              <ul className="divide-y divide-zinc-100">
                {data.data.map((l) => (
                  <li key={l.id}>
                    <button type="button" aria-expanded={open === l.id} onClick={() => setOpen(open === l.id ? null : l.id)} className="flex w-full flex-wrap items-center gap-3 px-5 py-3 text-left hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500">
                      <span className="min-w-0 flex-1 font-medium text-zinc-900">{l.name}</span>
                      <Badge tone={l.kind === "dynamic" ? "indigo" : "zinc"}>{l.kind}</Badge>
                      {l.windowed && <Badge tone="amber">time window</Badge>}
                      <span className="w-28 text-right text-sm text-zinc-600">{l.member_count.toLocaleString()} member{l.member_count === 1 ? "" : "s"}</span>
                      <span className="w-28 text-right text-xs text-zinc-400">{formatRelative(l.updated_at)}</span>
                    </button>
                    {open === l.id && (
                      <div className="space-y-2 px-5 pb-4">
                        {l.event_names.length > 0 && <p className="text-sm text-zinc-500">Re-evaluated on: {l.event_names.map((n) => <code key={n} className="mr-1 rounded bg-zinc-100 px-1 font-mono text-xs">{n}</code>)}</p>}
                        <JsonView value={l.rules} empty="Static list: no rules." />
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </Card>
          )
        }
      </QueryState>
    </>
  );
}
