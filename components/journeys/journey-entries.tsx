"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { pagingProps, useCursorPager } from "@/components/data-table/cursor-pager";
import { DataTable, type Columns } from "@/components/data-table/data-table";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/components/ui/format";
import { Badge, Card, controlClass, ErrorBanner, LoadingRows } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { JourneyEntryPathView, JourneyView } from "@/lib/journeys/schemas";

type Entry = {
  id: string;
  entrance_id: string;
  user_id: string;
  context: Record<string, unknown>;
  entered_at: string;
  exited_at: string | null;
  step_key: string | null;
  state: "active" | "waiting" | "exited";
  wake_at: string | null;
};
type Page = { data: Entry[]; next_cursor: string | null };

/**
 * A journey's entries, filtered by state, entrance, user and step (the step clicked on the flow), paged on
 * the server; each opens its path; editors can exit active ones.
 */
export function JourneyEntries({ journey, stepKey = null }: { journey: JourneyView; stepKey?: string | null }) {
  const [open, setOpen] = useState<string | null>(null);
  const project = useProject();
  const qc = useQueryClient();
  const [state, setState] = useState("");
  const [entrance, setEntrance] = useState("");
  const [user, setUser] = useState("");
  const userOk = /^[0-9a-f-]{36}$/i.test(user.trim());
  const filters = new URLSearchParams({
    limit: "25",
    ...(state ? { state } : {}),
    ...(entrance ? { entrance_id: entrance } : {}),
    ...(userOk ? { user_id: user.trim() } : {}),
    ...(stepKey ? { step_key: stepKey } : {}),
  });
  const pager = useCursorPager(filters.toString());
  if (pager.cursor) filters.set("cursor", pager.cursor);
  const key = ["journey-entries", project.id, journey.id, filters.toString()];
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Page>(adminPath(project.id, `/journeys/${journey.id}/entries?${filters}`)),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const canExit = roleAtLeast(project.role, "editor");
  // Optimistic: the entry shows as exited at once and reverts if the server refuses.
  const exit = useMutation({
    mutationFn: (id: string) =>
      apiFetch(adminPath(project.id, `/journeys/${journey.id}/entries/${id}/exit`), { method: "POST" }),
    onMutate: async (id) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<Page>(key);
      if (before)
        qc.setQueryData(key, {
          ...before,
          data: before.data.map((e) => (e.id === id ? { ...e, exited_at: new Date().toISOString() } : e)),
        });
      return { before };
    },
    onError: (_e, _id, ctx) => ctx?.before && qc.setQueryData(key, ctx.before),
    onSettled: () => qc.invalidateQueries({ queryKey: ["journey-entries", project.id, journey.id] }),
  });
  const entranceLabel = useCallback(
    (id: string) => {
      const i = journey.entrances.findIndex((e) => e.id === id);
      const e = journey.entrances[i];
      return e ? `${i + 1}: ${e.kind === "event" ? e.event_name : "schedule"}` : "removed entrance";
    },
    [journey.entrances],
  );
  const columns = useMemo<Columns<Entry>>(
    () => [
      {
        id: "user",
        header: "User",
        cell: ({ row }) => (
          <Link
            className="font-mono text-xs text-indigo-700 hover:underline"
            href={`/projects/${project.id}/users/${row.original.user_id}`}
          >
            {row.original.user_id.slice(0, 13)}…
          </Link>
        ),
      },
      { id: "entrance", header: "Entrance", cell: ({ row }) => entranceLabel(row.original.entrance_id) },
      { id: "entered", header: "Entered", cell: ({ row }) => formatDateTime(row.original.entered_at) },
      {
        id: "state",
        header: "State",
        cell: ({ row }) =>
          row.original.exited_at ? (
            <Badge>exited {formatDateTime(row.original.exited_at)}</Badge>
          ) : row.original.state === "waiting" ? (
            <Badge tone="amber">
              waiting at {row.original.step_key}
              {row.original.wake_at ? ` until ${formatDateTime(row.original.wake_at)}` : ""}
            </Badge>
          ) : (
            <Badge tone="green">active{row.original.step_key ? ` at ${row.original.step_key}` : ""}</Badge>
          ),
      },
      {
        id: "path",
        header: "Path",
        cell: ({ row }) => (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => setOpen(open === row.original.id ? null : row.original.id)}
          >
            {open === row.original.id ? "Hide path" : "Path"}
          </Button>
        ),
      },
      {
        id: "context",
        header: "Context",
        cell: ({ row }) => (
          <code
            className="block max-w-xs truncate font-mono text-xs text-zinc-500"
            title={JSON.stringify(row.original.context)}
          >
            {JSON.stringify(row.original.context)}
          </code>
        ),
      },
      ...(canExit
        ? [
            {
              id: "exit",
              header: () => <span className="sr-only">Exit</span>,
              cell: ({ row }: { row: { original: Entry } }) =>
                row.original.exited_at ? null : (
                  <Button size="sm" variant="secondary" onClick={() => exit.mutate(row.original.id)}>
                    Exit
                  </Button>
                ),
            },
          ]
        : []),
    ],
    [canExit, project.id, entranceLabel, exit, open],
  );
  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-center gap-3 px-5 pt-4">
        <h2 className="flex-1 text-sm font-semibold text-zinc-900">Entries{stepKey ? ` at ${stepKey}` : ""}</h2>
        <FilterSelect
          label="Entry state"
          none="All entries"
          value={state}
          onChange={setState}
          options={[
            { value: "active", label: "Active" },
            { value: "exited", label: "Exited" },
          ]}
        />
        <FilterSelect
          label="Entrance"
          none="All entrances"
          value={entrance}
          onChange={setEntrance}
          options={journey.entrances.map((e) => ({ value: e.id, label: entranceLabel(e.id) }))}
        />
        <input
          aria-label="User id"
          placeholder="user id"
          value={user}
          onChange={(e) => setUser(e.target.value)}
          className={`${controlClass} w-72 py-1 font-mono text-xs`}
        />
      </div>
      {open && <EntryPath journeyId={journey.id} entryId={open} />}
      {exit.isError && <ErrorBanner className="mx-5 mt-2" message={`Not exited: ${exit.error.message}`} />}
      {q.isPending ? (
        <div className="p-5">
          <LoadingRows rows={3} label="Loading entries" />
        </div>
      ) : q.isError ? (
        <ErrorBanner className="m-5" message={q.error.message} />
      ) : q.data.data.length === 0 && pager.page === 1 ? (
        <p className="px-5 pb-5 pt-3 text-sm text-zinc-500">
          No entries
          {state || entrance || userOk
            ? " match these filters"
            : " yet: users enter when an entrance's event arrives or its schedule offset fires"}
          .
        </p>
      ) : (
        <div className="mt-3">
          <DataTable
            rows={q.data.data}
            columns={columns}
            rowKey={(e) => e.id}
            caption="Journey entries, newest first"
            {...pagingProps(pager, q)}
          />
        </div>
      )}
    </Card>
  );
}

/** An entry's path: each step it passed, when, and how it came out. */
function EntryPath({ journeyId, entryId }: { journeyId: string; entryId: string }) {
  const project = useProject();
  const q = useQuery({
    queryKey: ["journey-entry", project.id, journeyId, entryId],
    queryFn: () => apiFetch<JourneyEntryPathView>(adminPath(project.id, `/journeys/${journeyId}/entries/${entryId}`)),
  });
  if (q.isPending) return <LoadingRows rows={2} label="Loading the path" />;
  if (q.isError) return <ErrorBanner className="mx-5 mt-2" message={q.error.message} />;
  const e = q.data;
  return (
    <section aria-label="Entry path" className="mx-5 mt-3 rounded-md border border-zinc-200 p-3">
      <h3 className="text-xs font-semibold text-zinc-800">
        Path of entry <span className="font-mono">{e.id.slice(0, 13)}…</span>
      </h3>
      <ol className="mt-2 space-y-1 text-xs">
        {e.path.map((s, i) => (
          <li key={`${s.step_key}-${i}`} className="flex gap-3">
            <span className="w-40 text-zinc-500">{formatDateTime(s.left_at)}</span>
            <span className="w-32 font-mono text-zinc-900">{s.step_key}</span>
            <span className="text-zinc-700">{s.outcome}</span>
          </li>
        ))}
        {e.state !== "exited" && e.step_key && (
          <li className="flex gap-3">
            <span className="w-40 text-zinc-500">now</span>
            <span className="w-32 font-mono text-zinc-900">{e.step_key}</span>
            <span className="text-zinc-700">
              {e.state}
              {e.wake_at ? ` until ${formatDateTime(e.wake_at)}` : ""}
              {e.waiting_for ? ` (${String(e.waiting_for.kind)})` : ""}
            </span>
          </li>
        )}
        {e.path.length === 0 && e.state === "exited" && (
          <li className="text-zinc-500">Exited without passing a step.</li>
        )}
      </ol>
    </section>
  );
}

/** One of the entries' filters: a labelled select whose first option ("", labelled `none`) means no filter. */
function FilterSelect({
  label,
  none,
  value,
  onChange,
  options,
}: {
  label: string;
  none: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <select
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`${controlClass} py-1`}
    >
      {[{ value: "", label: none }, ...options].map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
