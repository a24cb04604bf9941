"use client";
import type { ReactNode } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { adminPath, apiFetch } from "./api";
import { useProject } from "./project-context";

/**
 * Asks before deleting `target`, the row whose button opened it (null while closed): on yes it sends
 * DELETE to `path(target)` under the project's admin API, then runs `after` (usually a refetch).
 */
export function ConfirmDelete<T>({
  target,
  onClose,
  title,
  body,
  confirmLabel,
  path,
  after,
}: {
  target: T | null;
  onClose: () => void;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  path: (target: T) => string;
  after: () => unknown;
}) {
  const project = useProject();
  return (
    <ConfirmDialog
      open={target !== null}
      onClose={onClose}
      title={title}
      body={body}
      confirmLabel={confirmLabel}
      onConfirm={async () => {
        await apiFetch(adminPath(project.id, path(target as T)), { method: "DELETE" });
        await after();
      }}
    />
  );
}
