"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { diffLines } from "diff";
import { useState } from "react";
import type { z } from "zod";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Template } from "@/components/messages/types";
import { Button } from "@/components/ui/button";
import { formatRelative } from "@/components/ui/format";
import { ErrorBanner, Section } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { versionOutput } from "@/lib/templates/schemas";

type Version = z.output<typeof versionOutput>;

/** A version's content as lines to compare: each part under its name, the locales after the default. */
export function versionText(content: Record<string, unknown>): string {
  const parts = (c: Record<string, unknown>, prefix: string) =>
    ["subject", "text", "html"]
      .filter((k) => typeof c[k] === "string" && c[k] !== "")
      .map((k) => `--- ${prefix}${k}\n${c[k] as string}`);
  const locales = (content.locales ?? {}) as Record<string, Record<string, unknown>>;
  return [
    ...(content.format ? [`--- format: ${String(content.format)}`] : []),
    ...parts(content, ""),
    ...Object.keys(locales)
      .sort()
      .flatMap((l) => parts(locales[l]!, `${l}.`)),
  ].join("\n");
}

/** A small line diff: removed lines red, added green, unchanged ones grey. */
function LineDiff({ before, after }: { before: string; after: string }) {
  const changes = diffLines(before, after);
  if (changes.every((c) => !c.added && !c.removed))
    return <p className="text-xs text-zinc-500">No change in the content.</p>;
  return (
    <pre className="max-h-80 overflow-auto rounded-md bg-zinc-50 p-2 font-mono text-[11px] leading-4 ring-1 ring-zinc-200">
      {changes.flatMap((c, i) =>
        c.value
          .replace(/\n$/, "")
          .split("\n")
          .map((line, j) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed diff, never reordered.
              key={`${i}:${j}`}
              className={
                c.added ? "bg-emerald-50 text-emerald-800" : c.removed ? "bg-red-50 text-red-800" : "text-zinc-500"
              }
            >
              {c.added ? "+ " : c.removed ? "- " : "  "}
              {line}
            </div>
          )),
      )}
    </pre>
  );
}

/**
 * A template's versions (every save is one), newest first: each opens to its diff against the version
 * before it, and restores as a new version (the API's restore).
 */
export function VersionsPanel({ template }: { template: Template & { version?: number } }) {
  const project = useProject();
  const qc = useQueryClient();
  const canEdit = roleAtLeast(project.role, "editor");
  const [open, setOpen] = useState<number | null>(null);
  const q = useQuery({
    queryKey: ["template-versions", project.id, template.id, template.updated_at],
    queryFn: () => apiFetch<Page<Version>>(adminPath(project.id, `/templates/${template.id}/versions?limit=50`)),
  });
  const restore = useMutation({
    mutationFn: (n: number) =>
      apiFetch<Template>(adminPath(project.id, `/templates/${template.id}/versions/${n}/restore`), { method: "POST" }),
    onSuccess: (t) => {
      qc.setQueryData(["template", project.id, t.id], t);
      qc.invalidateQueries({ queryKey: ["template", project.id, t.id] });
      setOpen(null);
    },
  });
  const versions = q.data?.data ?? [];
  return (
    <Section title="Versions" description="Every save is a version; a restore saves an old one as the newest.">
      {q.isError && <ErrorBanner message={q.error.message} />}
      {!versions.length && q.isSuccess && <p className="text-sm text-zinc-500">No versions yet.</p>}
      <ul className="divide-y divide-zinc-100 text-sm" aria-label="Versions">
        {versions.map((v, i) => {
          const before = versions[i + 1];
          const current = v.number === template.version;
          return (
            <li key={v.id} className="py-2">
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  className="flex-1 text-left hover:text-indigo-700"
                  aria-expanded={open === v.number}
                  onClick={() => setOpen(open === v.number ? null : v.number)}
                >
                  <span className="font-medium">Version {v.number}</span>
                  {current && <span className="ml-2 text-xs text-emerald-700">current</span>}
                  <span className="ml-2 text-xs text-zinc-500">{formatRelative(v.created_at)}</span>
                </button>
                {canEdit && !current && (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={restore.isPending}
                    onClick={() => restore.mutate(v.number)}
                    aria-label={`Restore version ${v.number}`}
                  >
                    Restore
                  </Button>
                )}
              </div>
              {open === v.number && (
                <div className="mt-2">
                  <p className="mb-1 text-xs text-zinc-500">
                    {before ? `Changes from version ${before.number}` : "The first version"}
                  </p>
                  <div role="region" aria-label={`Changes in version ${v.number}`}>
                    <LineDiff before={before ? versionText(before.content) : ""} after={versionText(v.content)} />
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {restore.isError && <ErrorBanner message={restore.error.message} />}
    </Section>
  );
}
