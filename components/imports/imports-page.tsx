"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { adminPath, apiFetch, ApiError } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/dialog-form";
import { formatDateTime } from "@/components/ui/format";
import {
  Badge,
  Card,
  EmptyState,
  ErrorBanner,
  inputClass,
  PageHeader,
  tdClass,
  TableCard,
} from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import type { ImportView } from "@/lib/imports/view";

const KINDS = [
  { value: "users", label: "Users", columns: "external_id, source, email, phone, timezone, locale, data.<key>" },
  { value: "organizations", label: "Organizations", columns: "external_id, source, name, data.<key>" },
  {
    value: "memberships",
    label: "Memberships",
    columns: "organization_external_id, user_external_id, organization_source, user_source, data.<key>",
  },
] as const;

const running = (v: ImportView) => v.state === "queued" || v.state === "running";
const tone = (s: ImportView["state"]) =>
  s === "done" ? "green" : s === "failed" ? "red" : s === "cancelled" ? "zinc" : "indigo";

/** Upload a CSV or NDJSON file and watch the worker apply it (the list polls while an import is unfinished). */
export function ImportsPage() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["imports", project.id];
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<{ data: ImportView[] }>(adminPath(project.id, "/imports")),
    refetchInterval: (query) => (query.state.data?.data.some(running) ? 1000 : false),
  });
  const [kind, setKind] = useState<(typeof KINDS)[number]["value"]>("users");
  const [file, setFile] = useState<File | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: async () => {
      const type = /\.csv$/i.test(file!.name)
        ? "text/csv"
        : /\.(ndjson|jsonl)$/i.test(file!.name)
          ? "application/x-ndjson"
          : file!.type || "application/octet-stream";
      // The file goes as the raw body, streamed by the browser; the server streams it into storage.
      const res = await fetch(adminPath(project.id, `/imports?kind=${kind}`), {
        method: "POST",
        headers: { "content-type": type, "x-file-name": encodeURIComponent(file!.name) },
        body: file,
        credentials: "same-origin",
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new ApiError(res.status, body?.detail ?? `Upload failed (${res.status})`, body);
      return body as ImportView;
    },
    onSuccess: async (v) => {
      setSelected(v.id);
      setFile(null);
      if (input.current) input.current.value = "";
      await qc.invalidateQueries({ queryKey: key });
    },
  });
  const cancel = useMutation({
    mutationFn: (id: string) => apiFetch(adminPath(project.id, `/imports/${id}`), { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
  const shown = q.data?.data.find((v) => v.id === selected) ?? q.data?.data[0];
  const columns = KINDS.find((k) => k.value === kind)!.columns;
  return (
    <>
      <PageHeader
        title="Imports"
        description="Bring a whole user base in at once: upload a CSV (header row) or NDJSON file (one upsert body per line), up to 1 GiB."
      />
      <Card className="mb-6 p-5">
        <form
          className="flex flex-wrap items-end gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (file) upload.mutate();
          }}
        >
          <Field id="import-kind" label="Each row is">
            <select
              id="import-kind"
              value={kind}
              onChange={(e) => setKind(e.target.value as typeof kind)}
              className={`${inputClass} mt-1 w-44`}
            >
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          </Field>
          <div className="min-w-64 flex-1">
            <label htmlFor="import-file" className="block text-sm font-medium text-zinc-700">
              File
            </label>
            <input
              id="import-file"
              ref={input}
              type="file"
              accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              className={`${inputClass} mt-1`}
            />
          </div>
          <Button type="submit" disabled={!file || upload.isPending}>
            {upload.isPending ? "Uploading…" : "Upload and import"}
          </Button>
        </form>
        <p className="mt-3 text-xs text-zinc-500">
          CSV columns: <code className="font-mono">{columns}</code>. Data cells are typed: numbers, true/false and JSON
          stay values, anything else is text.
        </p>
        {upload.isError && <ErrorBanner className="mt-3" message={upload.error.message} />}
      </Card>
      {shown && <Progress v={shown} onCancel={() => cancel.mutate(shown.id)} cancelling={cancel.isPending} />}
      <QueryStatus q={q} what="imports" />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No imports yet">
          Upload a file above; its progress shows here while the worker applies it.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <TableCard columns={["File", "Kind", "State", "Applied", "Failed", "Started"]}>
          {q.data.data.map((v) => (
            <tr
              key={v.id}
              className={`cursor-pointer hover:bg-zinc-50 ${shown?.id === v.id ? "bg-indigo-50/40" : ""}`}
              onClick={() => setSelected(v.id)}
            >
              <td className={`${tdClass} font-medium text-zinc-900`}>
                {v.file_name ?? <span className="text-zinc-400">upload</span>}
              </td>
              <td className={tdClass}>{v.kind}</td>
              <td className={tdClass}>
                <Badge tone={tone(v.state)}>{v.state}</Badge>
              </td>
              <td className={`${tdClass} tabular-nums`}>{v.processed.toLocaleString("en")}</td>
              <td className={`${tdClass} tabular-nums`}>{v.failed.toLocaleString("en")}</td>
              <td className={`${tdClass} text-zinc-500`}>{formatDateTime(v.created_at)}</td>
            </tr>
          ))}
        </TableCard>
      )}
    </>
  );
}

function Progress({ v, onCancel, cancelling }: { v: ImportView; onCancel: () => void; cancelling: boolean }) {
  const share = v.bytes ? Math.min(1, v.bytes_processed / v.bytes) : 0;
  return (
    <Card className="mb-6 p-5">
      <div className="flex items-center justify-between gap-4">
        <div>
          <p className="text-sm font-semibold text-zinc-900">
            {v.file_name ?? "Upload"} <Badge tone={tone(v.state)}>{v.state}</Badge>
          </p>
          <p className="mt-1 text-sm text-zinc-600">
            <span data-testid="import-rows">{v.rows.toLocaleString("en")}</span> rows read ·{" "}
            <span data-testid="import-processed">{v.processed.toLocaleString("en")}</span> applied ·{" "}
            <span data-testid="import-failed">{v.failed.toLocaleString("en")}</span> failed
          </p>
        </div>
        {running(v) && (
          <Button variant="secondary" size="sm" onClick={onCancel} disabled={cancelling}>
            Cancel import
          </Button>
        )}
      </div>
      <div
        className="mt-4 h-2 overflow-hidden rounded-full bg-zinc-100"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
      >
        <div
          className={`h-full rounded-full ${v.state === "failed" ? "bg-red-500" : "bg-indigo-600"} transition-all`}
          style={{ width: `${share * 100}%` }}
        />
      </div>
      {v.error && <ErrorBanner className="mt-3" message={v.error} />}
      {v.errors.length > 0 && (
        <div className="mt-4">
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">
            Row errors
            {v.failed > v.errors.length ? ` (first ${v.errors.length} of ${v.failed.toLocaleString("en")})` : ""}
          </p>
          <ul className="mt-2 max-h-56 divide-y divide-zinc-100 overflow-auto rounded-md border border-zinc-200 text-sm">
            {v.errors.slice(0, 200).map((e, i) => (
              <li key={i} className="flex gap-3 px-3 py-1.5">
                <span className="w-20 shrink-0 font-mono text-xs text-zinc-500">line {e.line}</span>
                <span className="text-zinc-800">{e.message}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
