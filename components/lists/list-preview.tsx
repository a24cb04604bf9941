"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { rule } from "@/lib/lists/rule-schema";
import type { ListPreview } from "@/lib/lists/schemas";
import { Card, ErrorBanner } from "@/components/ui/states";

/** Waits until `value` has been still for `ms`, so typing does not fire a preview per keystroke. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** Live count and sample of the users the rules match now, computed by the server (POST /lists/preview). */
export function ListPreviewCard({ projectId, rules }: { projectId: string; rules: unknown }) {
  const json = useSettled(JSON.stringify(rules ?? null), 500);
  const parsed = rule.safeParse(JSON.parse(json));
  const q = useQuery({
    queryKey: ["list-preview", projectId, json],
    queryFn: () =>
      apiFetch<ListPreview>(adminPath(projectId, "/lists/preview"), {
        method: "POST",
        body: { rules: JSON.parse(json) },
      }),
    enabled: parsed.success,
    placeholderData: (prev) => prev,
    staleTime: 5_000,
  });
  return (
    <Card className="p-4">
      <h2 className="text-sm font-semibold text-zinc-900">Preview</h2>
      <div className="min-h-16" aria-live="polite">
        {!parsed.success ? (
          <p className="mt-2 text-sm text-zinc-500">Complete the rules to see who matches.</p>
        ) : q.isError ? (
          <ErrorBanner className="mt-2" message={q.error.message} />
        ) : !q.data ? (
          <p className="mt-2 text-sm text-zinc-500">Counting…</p>
        ) : (
          <>
            <p className="mt-1 text-3xl font-semibold tabular-nums text-zinc-900" data-testid="preview-count">
              {q.data.estimated ? "≈ " : ""}
              {q.data.count.toLocaleString()}
            </p>
            <p className="text-xs text-zinc-500">
              user{q.data.count === 1 ? "" : "s"} match now
              {q.data.estimated ? " (estimated from a sample of users)" : ""} · {q.data.took_ms} ms
              {q.isFetching ? " · updating…" : ""}
            </p>
            {q.data.sample.length > 0 && (
              <ul className="mt-3 divide-y divide-zinc-100 text-sm" aria-label="Sample of matching users">
                {q.data.sample.map((u) => (
                  <li key={u.id} className="truncate py-1.5">
                    <Link className="text-indigo-700 hover:underline" href={`/projects/${projectId}/users/${u.id}`}>
                      {u.external_id ?? u.email ?? u.id}
                    </Link>
                    {u.email && u.external_id && <span className="ml-2 text-xs text-zinc-500">{u.email}</span>}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </Card>
  );
}
