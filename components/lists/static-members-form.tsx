"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner, inputClass } from "@/components/ui/states";
import { identifiersFromText } from "./identifiers-from-text";

const CHUNK = 1000;

/** Adds or removes static-list members by identifier: pasted one per line, or a CSV file; sent 1,000 at a time. */
export function StaticMembersForm({ projectId, listId }: { projectId: string; listId: string }) {
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const [result, setResult] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: async (op: "add" | "remove") => {
      const refs = identifiersFromText(text);
      if (!refs.length) throw new Error("Paste or upload at least one identifier.");
      let changed = 0;
      for (let i = 0; i < refs.length; i += CHUNK) {
        const r = await apiFetch<{ changed: string[] }>(adminPath(projectId, `/lists/${listId}/users`), {
          method: op === "add" ? "POST" : "DELETE",
          body: { identifiers: refs.slice(i, i + CHUNK) },
        });
        changed += r.changed.length;
      }
      return { op, changed, named: refs.length };
    },
    onSuccess: ({ op, changed, named }) => {
      setResult(
        `${op === "add" ? "Added" : "Removed"} ${changed} of ${named} named user${named === 1 ? "" : "s"}${changed < named ? ` (the rest were unknown or already ${op === "add" ? "members" : "absent"})` : ""}.`,
      );
      qc.invalidateQueries({ queryKey: ["list", projectId, listId] });
      qc.invalidateQueries({ queryKey: ["list-members", projectId, listId] });
      qc.invalidateQueries({ queryKey: ["list-history", projectId, listId] });
    },
  });
  return (
    <Card className="space-y-3 p-5">
      <h2 className="text-sm font-semibold text-zinc-900">Add or remove members</h2>
      <label htmlFor="static-ids" className="block text-sm text-zinc-600">
        External ids, one per line, or a CSV with an <code className="font-mono text-xs">external_id</code> column (and
        optionally <code className="font-mono text-xs">source</code>).
      </label>
      <textarea
        id="static-ids"
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className={`${inputClass} font-mono text-xs`}
        placeholder={"u-1\nu-2"}
      />
      <div className="flex flex-wrap items-center gap-2">
        <label className="cursor-pointer text-sm text-indigo-700 hover:underline">
          Upload CSV…
          <input
            type="file"
            accept=".csv,text/csv,text/plain"
            className="sr-only"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) setText(await f.text());
            }}
          />
        </label>
        <span className="flex-1" />
        <Button variant="secondary" disabled={change.isPending} onClick={() => change.mutate("remove")}>
          Remove
        </Button>
        <Button disabled={change.isPending} onClick={() => change.mutate("add")}>
          {change.isPending ? "Working…" : "Add"}
        </Button>
      </div>
      {change.isError && <ErrorBanner message={change.error.message} />}
      {result && !change.isError && (
        <p role="status" className="text-sm text-emerald-700">
          {result}
        </p>
      )}
    </Card>
  );
}
