"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { formatRelative } from "@/components/ui/format";
import { IdentifierChips, type Identifier } from "@/components/ui/json-view";
import { EmptyState, controlClass, PageHeader, tdClass, TableCard } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";

type Row = {
  id: string;
  identifier: Identifier[];
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  [k: string]: unknown;
};
type SearchMode = { value: string; label: string; placeholder: string };

const missing = <span className="text-zinc-400">—</span>;

/**
 * Each kind's page: its header, the examples its identifier and data searches show, and its own field,
 * searched by and shown in the second column.
 */
const KINDS: Record<
  "users" | "organizations",
  {
    title: string;
    description: string;
    examples: { identifier: string; data: string };
    field: SearchMode;
    cell: (r: Row) => ReactNode;
  }
> = {
  users: {
    title: "Users",
    description: "Your end users, newest first. Search by identifier, e-mail or data.",
    examples: { identifier: "user-42", data: '{"plan": "pro"}' },
    field: { value: "email", label: "E-mail", placeholder: "ada@example.com" },
    cell: (r) => (r.email ? <span title={r.email as string}>{r.email as string}</span> : missing),
  },
  organizations: {
    title: "Organizations",
    description: "The companies and teams your users belong to. Search by identifier, name or data.",
    examples: { identifier: "acme", data: '{"tier": "enterprise"}' },
    field: { value: "name", label: "Name", placeholder: "Acme" },
    cell: (r) => (r.name as string | null) ?? missing,
  },
};

/**
 * A searchable, paginated list of users or organizations (newest first), linking to each profile. Both
 * search by identifier (with its source), by the kind's own field and by data.
 */
export function RecordList({ kind }: { kind: "users" | "organizations" }) {
  const { title, description, examples, field, cell } = KINDS[kind];
  const modes: SearchMode[] = [
    { value: "external_id", label: "Identifier", placeholder: `external id, e.g. ${examples.identifier}` },
    field,
    { value: "data", label: "Data contains", placeholder: examples.data },
  ];
  const project = useProject();
  const [mode, setMode] = useState(modes[0]!.value);
  const [text, setText] = useState("");
  const [source, setSource] = useState("");
  const [applied, setApplied] = useState<Record<string, string>>({});
  const q = useInfiniteQuery({
    queryKey: [kind, project.id, applied],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: "50", ...applied });
      if (pageParam) params.set("cursor", pageParam);
      return apiFetch<{ data: Row[]; next_cursor: string | null }>(adminPath(project.id, `/${kind}?${params}`));
    },
    getNextPageParam: (last) => last.next_cursor,
  });
  const rows = q.data?.pages.flatMap((p) => p.data) ?? [];
  const searching = Object.keys(applied).length > 0;
  const current = modes.find((m) => m.value === mode)!;
  return (
    <>
      <PageHeader title={title} description={description} />
      <form
        role="search"
        className="mb-4 flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const t = text.trim();
          if (!t) return setApplied({});
          setApplied(
            mode === "external_id" && source.trim() ? { external_id: t, source: source.trim() } : { [mode]: t },
          );
        }}
      >
        <select aria-label="Search by" value={mode} onChange={(e) => setMode(e.target.value)} className={controlClass}>
          {modes.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
        {mode === "external_id" && (
          <input
            aria-label="Identifier source"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            placeholder="source (any)"
            className={`${controlClass} w-36`}
          />
        )}
        <input
          aria-label={`Search ${kind}`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={current.placeholder}
          className={`${controlClass} min-w-64 flex-1 ${mode === "data" ? "font-mono" : ""}`}
        />
        <Button type="submit">Search</Button>
        {searching && (
          <Button
            variant="ghost"
            onClick={() => {
              setText("");
              setSource("");
              setApplied({});
            }}
          >
            Clear
          </Button>
        )}
      </form>
      <QueryStatus q={q} what={kind} />
      {q.isSuccess && rows.length === 0 && (
        <EmptyState title={searching ? `No ${kind} match` : `No ${kind} yet`}>
          {searching ? (
            "Try another identifier, address or filter."
          ) : kind === "users" ? (
            <>
              Send one with <code className="font-mono text-xs">POST /api/client/projects/{project.id}/users</code>{" "}
              using an API key.
            </>
          ) : (
            <>
              Send one with{" "}
              <code className="font-mono text-xs">POST /api/client/projects/{project.id}/organizations</code>.
            </>
          )}
        </EmptyState>
      )}
      {rows.length > 0 && (
        <TableCard columns={["Identifiers", field.label, "Data", "Updated"]}>
          {rows.map((r) => (
            <tr key={r.id} className="hover:bg-zinc-50">
              <td className={tdClass}>
                <Link
                  href={`/projects/${project.id}/${kind}/${r.id}`}
                  className="rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                  aria-label={`Open ${r.identifier.map((i) => i.external_id).join(", ")}`}
                >
                  <IdentifierChips identifier={r.identifier} />
                </Link>
              </td>
              {/* Bounded like the data column, so a long address cannot push Updated out of the card. */}
              <td className={`${tdClass} max-w-[18rem] truncate`}>{cell(r)}</td>
              <td className={`${tdClass} max-w-[16rem] truncate font-mono text-xs text-zinc-500`}>
                {Object.keys(r.data).length ? JSON.stringify(r.data) : "—"}
              </td>
              <td className={`${tdClass} whitespace-nowrap text-zinc-500`}>{formatRelative(r.updated_at)}</td>
            </tr>
          ))}
        </TableCard>
      )}
      {q.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
            {q.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      )}
    </>
  );
}
