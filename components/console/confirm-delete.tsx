"use client";
import type { ReactNode } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { adminPath, apiFetch } from "./api";
import { useProject } from "./project-context";

/**
 * Asks before deleting `target`'s row, the one whose button opened it (null while closed; closing sets it
 * back to null): on yes it sends DELETE to `path(row)` under the project's admin API, then runs `after`
 * (usually a refetch).
 */
export function ConfirmDelete<T>({
  target: [row, setRow],
  title,
  body,
  confirmLabel,
  path,
  after,
}: {
  /** The row and its state's setter (`useState<T | null>`). */
  target: [T | null, (row: null) => void];
  title: string;
  body: ReactNode;
  confirmLabel: string;
  path: (target: T) => string;
  after: () => unknown;
}) {
  const project = useProject();
  return (
    <ConfirmDialog
      open={row !== null}
      onClose={() => setRow(null)}
      title={title}
      body={body}
      confirmLabel={confirmLabel}
      onConfirm={async () => {
        await apiFetch(adminPath(project.id, path(row as T)), { method: "DELETE" });
        await after();
      }}
    />
  );
}
