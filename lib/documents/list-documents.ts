import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { documents } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { toDocumentView } from "./document-view";

/** The project's documents, newest first (their bytes are not read). */
export async function listDocuments(ctx: ProjectContext, q: { limit: number; cursor?: string; origin: string }) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await ctx.db
    .select({
      id: documents.id,
      name: documents.name,
      contentType: documents.contentType,
      size: documents.size,
      createdAt: documents.createdAt,
    })
    .from(documents)
    .where(and(eq(documents.projectId, ctx.projectId), after ? lt(documents.id, after[0]) : undefined))
    .orderBy(desc(documents.id))
    .limit(q.limit + 1);
  return page(
    rows.map((r) => toDocumentView(r, q.origin)),
    q.limit,
    (d) => [d.id],
  );
}
