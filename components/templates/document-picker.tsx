"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import type { z } from "zod";
import { ApiError, adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { documentOutput } from "@/lib/documents/schemas";

export type DocumentItem = z.output<typeof documentOutput>;

/** One file to `POST /documents` (multipart: apiFetch speaks JSON only). */
async function upload(projectId: string, file: File): Promise<DocumentItem> {
  const form = new FormData();
  form.append("file", file);
  const res = await fetch(adminPath(projectId, "/documents"), {
    method: "POST",
    body: form,
    credentials: "same-origin",
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body?.detail ?? body?.title ?? `Upload failed (${res.status})`, body);
  return body as DocumentItem;
}

/**
 * The project's images (`GET /documents`), to pick one for an image block; an editor may upload one here
 * too (PNG, JPEG, GIF or WebP, sniffed by the server), which is picked at once.
 */
export function DocumentPicker({
  open,
  onClose,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (d: DocumentItem) => void;
}) {
  const project = useProject();
  const qc = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const canUpload = roleAtLeast(project.role, "editor");
  const q = useQuery({
    queryKey: ["documents", project.id],
    enabled: open,
    queryFn: () => apiFetch<Page<DocumentItem>>(adminPath(project.id, "/documents?limit=100")),
  });
  const send = useMutation({
    mutationFn: (f: File) => upload(project.id, f),
    onSuccess: (d) => {
      qc.invalidateQueries({ queryKey: ["documents", project.id] });
      onPick(d);
    },
  });
  const docs = q.data?.data ?? [];
  return (
    <Dialog open={open} onClose={onClose} title="Choose an image">
      <div className="space-y-3">
        {q.isPending && <LoadingRows rows={2} label="Loading the images" />}
        {q.isError && <ErrorBanner message={q.error.message} />}
        {q.isSuccess && !docs.length && (
          <p className="text-sm text-zinc-500">No images in this project yet{canUpload ? ": upload one." : "."}</p>
        )}
        {docs.length > 0 && (
          <ul className="grid max-h-72 grid-cols-3 gap-2 overflow-y-auto" aria-label="Images">
            {docs.map((d) => (
              <li key={d.id}>
                <button
                  type="button"
                  onClick={() => onPick(d)}
                  aria-label={`Use ${d.name}`}
                  className="group block w-full rounded-md border border-zinc-200 p-1 text-left hover:border-indigo-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                >
                  {/* biome-ignore lint/performance/noImgElement: a user's uploaded image at its own URL, not a page asset. */}
                  <img src={d.url} alt="" className="h-16 w-full rounded bg-zinc-50 object-contain" />
                  <span className="mt-1 block truncate text-[11px] text-zinc-600 group-hover:text-indigo-700">
                    {d.name}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {send.isError && <ErrorBanner message={send.error.message} />}
        <div className="flex items-center justify-between gap-2">
          {canUpload ? (
            <>
              <input
                ref={file}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                aria-label="Upload an image"
                className="sr-only"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f) send.mutate(f);
                  e.target.value = "";
                }}
              />
              <Button size="sm" variant="secondary" disabled={send.isPending} onClick={() => file.current?.click()}>
                {send.isPending ? "Uploading…" : "Upload an image"}
              </Button>
            </>
          ) : (
            <span />
          )}
          <Button size="sm" variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
