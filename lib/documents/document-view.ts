import type { z } from "zod";
import type { DocumentRow } from "@/db/schema";
import type { documentOutput } from "./schemas";

export type DocumentView = z.infer<typeof documentOutput>;

export const documentPath = (d: { id: string; name: string }) => `/d/${d.id}/${encodeURIComponent(d.name)}`;

export function toDocumentView(d: Omit<DocumentRow, "data" | "projectId" | "sha256">, origin: string): DocumentView {
  return {
    id: d.id,
    name: d.name,
    content_type: d.contentType as DocumentView["content_type"],
    size: d.size,
    url: origin + documentPath(d),
    created_at: d.createdAt.toISOString(),
  };
}

/** A file name fit for a URL path: its last segment, letters, digits, `.`, `-` and `_` only, at most 100. */
export function safeName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? "";
  const clean = last
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 100);
  return clean || "image";
}
