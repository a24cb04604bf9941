"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { Badge, controlClass, EmptyState, tdClass, thClass, TableCard } from "@/components/ui/states";
import { QueryPage } from "@/components/ui/query-state";
import type { EventSchema } from "@/components/console/api-types";

/** The discovered schema: every event name seen, with property paths and the types observed. Read-only. */
export function SchemaPage() {
  const project = useProject();
  const q = useQuery({
    queryKey: ["schema", project.id],
    queryFn: () => apiFetch<{ data: EventSchema[] }>(adminPath(project.id, "/schema")),
  });
  const [filter, setFilter] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  return (
    <QueryPage
      title="Schema"
      description="Event names and property types discovered from the events you send. Nothing to register: it updates as events arrive."
      q={q}
      what="schema"
    >
      {(data) => {
        const rows = data.data.filter((e) => e.event_name.toLowerCase().includes(filter.toLowerCase()));
        if (!data.data.length)
          return (
            <EmptyState title="No events discovered yet">Send an event and its properties show up here.</EmptyState>
          );
        return (
          <>
            <input
              aria-label="Filter event names"
              placeholder="Filter event names"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              className={`${controlClass} mb-4 w-80`}
            />
            <TableCard columns={["Event", "Properties", "Seen", "Last seen"]}>
              {rows.map((e) => (
                <SchemaRow
                  key={e.event_name}
                  e={e}
                  open={open === e.event_name}
                  toggle={() => setOpen(open === e.event_name ? null : e.event_name)}
                />
              ))}
            </TableCard>
          </>
        );
      }}
    </QueryPage>
  );
}

function SchemaRow({ e, open, toggle }: { e: EventSchema; open: boolean; toggle: () => void }) {
  return (
    <>
      <tr className="hover:bg-zinc-50">
        <td className={tdClass}>
          <button
            type="button"
            onClick={toggle}
            aria-expanded={open}
            className="font-mono text-sm text-zinc-900 hover:text-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            {open ? "▾" : "▸"} {e.event_name}
          </button>
        </td>
        <td className={`${tdClass} text-zinc-500`}>{e.properties.length}</td>
        <td className={`${tdClass} text-zinc-500`}>{e.count.toLocaleString()}×</td>
        <td className={`${tdClass} text-zinc-500`} title={formatDateTime(e.last_seen)}>
          {formatRelative(e.last_seen)}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={4} className="bg-zinc-50/60 px-8 py-3">
            {e.properties.length === 0 ? (
              <p className="text-sm text-zinc-400">No properties.</p>
            ) : (
              <table className="min-w-full text-sm">
                <thead>
                  <tr>
                    <th className={`${thClass} pl-0`}>Path</th>
                    <th className={thClass}>Types</th>
                    <th className={thClass}>Seen</th>
                    <th className={thClass}>First seen</th>
                  </tr>
                </thead>
                <tbody>
                  {e.properties.map((p) => (
                    <tr key={p.path}>
                      <td className="py-1.5 font-mono text-xs text-zinc-800">{p.path}</td>
                      <td className="px-4 py-1.5">
                        <span className="flex gap-1">
                          {p.types.map((t) => (
                            <Badge key={t}>{t}</Badge>
                          ))}
                        </span>
                      </td>
                      <td className="px-4 py-1.5 text-zinc-500">{p.count.toLocaleString()}×</td>
                      <td className="px-4 py-1.5 text-zinc-500">{formatDateTime(p.first_seen)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
