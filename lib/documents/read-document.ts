import { eq } from "drizzle-orm";
import { documents } from "@/db/schema";
import type { AppContext } from "@/lib/access/context";
import { documentsDir, readDocumentFile } from "./storage";

/**
 * A document for its public URL: by id (a UUID nobody guesses), and only under the name it was stored
 * with, so a URL is one document's and nothing else's. Null when there is none.
 */
export async function readDocument(
  ctx: AppContext,
  input: { id: string; name: string },
): Promise<{ contentType: string; sha256: string; bytes: Uint8Array } | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(input.id)) return null;
  const [d] = await ctx.db.select().from(documents).where(eq(documents.id, input.id));
  if (!d || d.name !== input.name) return null;
  const dir = documentsDir();
  const bytes = d.data ?? (dir ? await readDocumentFile(dir, d.id).catch(() => null) : null);
  return bytes ? { contentType: d.contentType, sha256: d.sha256, bytes } : null;
}
