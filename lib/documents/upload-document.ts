import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { documents } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { withTransaction } from "@/lib/db/transaction";
import { Invalid, PayloadTooLarge, RuleBroken, UnsupportedMediaType } from "@/lib/http/errors";
import { safeName, toDocumentView } from "./document-view";
import { documentQuota } from "./quota";
import { MAX_DOCUMENT_BYTES } from "./schemas";
import { sniffImage } from "./sniff";
import { documentsDir, removeDocumentFile, writeDocumentFile } from "./storage";

/**
 * Stores an uploaded image: its type is what its bytes are (PNG, JPEG, GIF, WebP; anything else, SVG
 * included, is a 415), at most 5 MB, within the project's quota (422). The quota is checked under a
 * lock per project, so two uploads at once cannot both pass it.
 */
export async function uploadDocument(ctx: ProjectContext, input: { name: string; bytes: Uint8Array; origin: string }) {
  if (!input.bytes.byteLength)
    throw new Invalid("The file is empty.", { errors: [{ path: "file", message: "empty" }] });
  if (input.bytes.byteLength > MAX_DOCUMENT_BYTES)
    throw new PayloadTooLarge(`A document is at most ${MAX_DOCUMENT_BYTES} bytes.`);
  const type = sniffImage(input.bytes);
  if (!type)
    throw new UnsupportedMediaType(
      "A document is a PNG, JPEG, GIF or WebP image (judged by its bytes; SVG is refused).",
      {
        errors: [{ path: "file", message: "not a PNG, JPEG, GIF or WebP image" }],
      },
    );
  const dir = documentsDir();
  const id = crypto.randomUUID();
  return withTransaction(ctx.db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`documents:${ctx.projectId}`}, 0))`);
    const [usage] = await queryRows<{ used: number; quota: number | null }>(
      tx,
      sql`select coalesce((select sum(size) from documents where project_id = ${ctx.projectId}::uuid), 0)::bigint as used,
        (select document_quota_bytes from projects where id = ${ctx.projectId}::uuid) as quota`,
    );
    const quota = documentQuota(usage?.quota === null || usage?.quota === undefined ? null : Number(usage.quota));
    if (Number(usage?.used ?? 0) + input.bytes.byteLength > quota)
      throw new RuleBroken(`The project's documents would pass its quota of ${quota} bytes: delete some first.`);
    const [row] = await tx
      .insert(documents)
      .values({
        projectId: ctx.projectId,
        id,
        name: safeName(input.name),
        contentType: type,
        size: input.bytes.byteLength,
        sha256: createHash("sha256").update(input.bytes).digest("hex"),
        data: dir ? null : Buffer.from(input.bytes),
      })
      .returning({
        id: documents.id,
        name: documents.name,
        contentType: documents.contentType,
        size: documents.size,
        createdAt: documents.createdAt,
      });
    if (dir)
      try {
        await writeDocumentFile(dir, id, input.bytes);
      } catch (err) {
        await removeDocumentFile(dir, id).catch(() => {});
        throw err;
      }
    return toDocumentView(row!, input.origin);
  });
}
