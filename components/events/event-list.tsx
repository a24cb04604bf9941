"use client";
import Link from "next/link";
import { useState } from "react";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import { Badge } from "@/components/ui/states";
import type { EventListItem, EventRow } from "@/components/console/api-types";
import { TraceButton } from "@/components/explain/event-trace";
export type { EventRow };

/** The data in one line, cut to fit a row: enough to recognise an event without opening it. */
function preview(data: Record<string, unknown>): string {
  const text = Object.entries(data)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Events as a timeline; each row expands (Enter/Space, it is a button) to show its data. */
export function EventList({
  events,
  projectId,
  fresh,
}: {
  events: (EventRow & { who?: EventListItem["who"] })[];
  projectId: string;
  fresh?: Set<string>;
}) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <ol className="divide-y divide-zinc-100">
      {events.map((e) => (
        <li key={e.id} className={fresh?.has(e.id) ? "bg-indigo-50/70 transition-colors" : undefined}>
          <button
            type="button"
            aria-expanded={open === e.id}
            onClick={() => setOpen(open === e.id ? null : e.id)}
            className="flex w-full items-center gap-3 px-4 py-2.5 text-left hover:bg-zinc-50 focus:outline-none focus-visible:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
          >
            <span
              className={`h-2 w-2 shrink-0 rounded-full ${e.origin === "system" ? "bg-zinc-300" : "bg-indigo-500"}`}
              aria-hidden
            />
            <span className="w-48 shrink-0 truncate font-mono text-sm text-zinc-900">{e.name}</span>
            {e.who !== undefined && (
              <span className="w-40 shrink-0 truncate text-sm text-zinc-700" title={e.who?.id}>
                {e.who ? e.who.label : <span className="text-zinc-400">—</span>}
              </span>
            )}
            <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-500">{preview(e.data)}</span>
            {e.origin === "system" && <Badge>system</Badge>}
            <time dateTime={e.timestamp} title={formatDateTime(e.timestamp)} className="shrink-0 text-xs text-zinc-500">
              {formatRelative(e.timestamp)}
            </time>
          </button>
          {open === e.id && (
            <div className="space-y-2 px-4 pb-4 pl-9">
              <p className="flex flex-wrap items-center gap-1 text-xs text-zinc-500">
                {formatDateTime(e.timestamp)}
                {e.who && (
                  <>
                    {" "}
                    ·{" "}
                    <Link
                      className="text-indigo-600 hover:underline"
                      href={`/projects/${projectId}/${e.who.kind === "user" ? "users" : "organizations"}/${e.who.id}`}
                    >
                      {e.who.label}
                    </Link>
                  </>
                )}
                <TraceButton projectId={projectId} eventId={e.id} label="Where did it go?" />
                {!e.who && e.user_id && (
                  <>
                    {" "}
                    ·{" "}
                    <Link
                      className="text-indigo-600 hover:underline"
                      href={`/projects/${projectId}/users/${e.user_id}`}
                    >
                      user
                    </Link>
                  </>
                )}
                {!e.who && e.organization_id && (
                  <>
                    {" "}
                    ·{" "}
                    <Link
                      className="text-indigo-600 hover:underline"
                      href={`/projects/${projectId}/organizations/${e.organization_id}`}
                    >
                      organization
                    </Link>
                  </>
                )}
              </p>
              <JsonView value={e.data} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
