import { and, eq } from "drizzle-orm";
import { documents } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { documentsDir, removeDocumentFile } from "./storage";

/** Deletes a document: its URL answers 404 from then on (caches may hold it for their max-age). */
export async function deleteDocument(ctx: ProjectContext, id: string): Promise<void> {
  const gone = await ctx.db
    .delete(documents)
    .where(and(eq(documents.projectId, ctx.projectId), eq(documents.id, id)))
    .returning({ id: documents.id });
  if (!gone.length) throw new NotFound("No document with this id in this project.");
  const dir = documentsDir();
  if (dir) await removeDocumentFile(dir, id);
}
