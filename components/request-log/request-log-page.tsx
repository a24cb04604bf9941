"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { useCursorPager } from "@/components/data-table/cursor-pager";
import { type Columns, timeColumn } from "@/components/data-table/data-table";
import { PagedTable } from "@/components/data-table/paged-table";
import { Button } from "@/components/ui/button";
import { Badge, controlClass, EmptyState, PageHeader } from "@/components/ui/states";
import type { LoggedRequest as Logged } from "@/lib/request-log/list-requests";
import { curlOf } from "./curl";

type Key = { id: string; name: string; prefix: string };

const STATUSES = [
  ["", "All statuses"],
  ["failed", "Failed (400+)"],
  ["2xx", "2xx"],
  ["4xx", "4xx"],
  ["5xx", "5xx"],
  ["400", "400"],
  ["401", "401"],
  ["403", "403"],
  ["404", "404"],
  ["409", "409"],
  ["413", "413"],
  ["429", "429"],
] as const;

const statusTone = (s: number) => (s >= 500 ? "red" : s >= 400 ? "amber" : "green");

function RequestDetail({ r }: { r: Logged }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const curl = curlOf(typeof window === "undefined" ? "" : window.location.origin, r);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(curl);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <section className="space-y-3 text-sm" aria-label={`Request ${r.request_id}`}>
      <p className="text-xs text-zinc-500">
        Request id <code className="select-all rounded bg-white px-1 font-mono text-zinc-800">{r.request_id}</code>:
        quote it to find the server's log lines.
      </p>
      {r.errors && r.errors.length > 0 && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">Errors</p>
          <ul className="mt-1 space-y-0.5">
            {r.errors.map((e, i) => (
              <li key={i}>
                <code className="font-mono text-xs text-red-700">{e.path || "(body)"}</code>{" "}
                <span className="text-zinc-700">{e.message}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {r.body !== null && (
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">
            Body (secrets redacted, 4 KiB at most)
          </p>
          <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded-md bg-white p-2 font-mono text-xs text-zinc-800 ring-1 ring-zinc-200">
            {r.body}
          </pre>
        </div>
      )}
      <div>
        <div className="flex items-center gap-2">
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">curl</p>
          <Button size="sm" variant="secondary" onClick={copy}>
            Copy as curl
          </Button>
          <span role="status" className="text-xs text-zinc-500">
            {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed: select the text below" : ""}
          </span>
        </div>
        <pre
          data-testid="curl"
          className="mt-1 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-900 p-2 font-mono text-xs text-zinc-100"
        >
          {curl}
        </pre>
      </div>
    </section>
  );
}

/** The API request log: each key's recent requests, failed ones with errors and body, filterable, copyable as curl. */
export function RequestLogPage() {
  const project = useProject();
  const router = useRouter();
  const params = useSearchParams();
  const status = params.get("status") ?? "";
  const keyId = params.get("key_id") ?? "";
  const pager = useCursorPager(`${status}|${keyId}`);
  const [open, setOpen] = useState<string | null>(null);
  const keys = useQuery({
    queryKey: ["keys", project.id],
    queryFn: () => apiFetch<{ data: Key[] }>(adminPath(project.id, "/keys?limit=500")),
  });
  const qs = new URLSearchParams({
    limit: "50",
    ...(status ? { status } : {}),
    ...(keyId ? { key_id: keyId } : {}),
    ...(pager.cursor ? { cursor: pager.cursor } : {}),
  });
  const q = useQuery({
    queryKey: ["requests", project.id, qs.toString()],
    queryFn: () => apiFetch<{ data: Logged[]; next_cursor: string | null }>(adminPath(project.id, `/requests?${qs}`)),
    placeholderData: keepPreviousData,
    refetchInterval: pager.page === 1 ? 5_000 : false,
  });
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    router.replace(`?${next}`);
  };
  const columns = useMemo<Columns<Logged>>(
    () => [
      timeColumn((r) => r.at),
      {
        id: "key",
        header: "Key",
        cell: ({ row }) => (
          <span title={row.original.key_prefix ?? undefined}>{row.original.key_name ?? "deleted key"}</span>
        ),
      },
      {
        id: "method",
        header: "Method",
        cell: ({ row }) => <code className="font-mono text-xs">{row.original.method}</code>,
      },
      {
        id: "path",
        header: "Path",
        cell: ({ row }) => (
          <code className="block max-w-[16rem] truncate font-mono text-xs" title={row.original.path}>
            {row.original.path.replace(`/projects/${project.id}`, "/projects/…")}
          </code>
        ),
      },
      {
        id: "status",
        header: "Status",
        cell: ({ row }) => <Badge tone={statusTone(row.original.status)}>{row.original.status}</Badge>,
      },
      {
        id: "duration",
        header: "Duration",
        cell: ({ row }) => <span className="tabular-nums">{row.original.duration_ms} ms</span>,
      },
    ],
    [project.id],
  );
  return (
    <>
      <PageHeader
        title="Request log"
        description="The last 1,000 requests of each API key over 7 days. Failed requests keep their errors and their body, secrets redacted. Newest first; new requests appear within a few seconds."
      />
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="text-sm text-zinc-600">
          <span className="sr-only">Status</span>
          <select
            aria-label="Status"
            value={status}
            onChange={(e) => setFilter("status", e.target.value)}
            className={controlClass}
          >
            {STATUSES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <select
          aria-label="API key"
          value={keyId}
          onChange={(e) => setFilter("key_id", e.target.value)}
          className={controlClass}
        >
          <option value="">All keys</option>
          {keys.data?.data.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name} ({k.prefix})
            </option>
          ))}
        </select>
      </div>
      <PagedTable
        q={q}
        pager={pager}
        what="requests"
        empty={
          <EmptyState title={status || keyId ? "No requests match these filters" : "No requests logged yet"}>
            Requests made with this project's API keys appear here a second or so after they are answered.
          </EmptyState>
        }
        columns={columns}
        caption="API requests, newest first"
        open={open}
        onOpen={setOpen}
        detail={(r) => <RequestDetail r={r} />}
      />
    </>
  );
}
