import { and, eq, sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import type { Db } from "@/db/client";
import { importChunks, imports } from "@/db/schema";
import { queryRows } from "@/lib/db/sql";
import { Invalid, PayloadTooLarge, RateLimited, RuleBroken, UnsupportedMediaType } from "@/lib/http/errors";
import { IMPORTS_CHANNEL } from "@/lib/queue/jobs";
import { formatOf, headerProblems, MAX_IMPORT_BYTES, type ImportKind } from "./formats";
import { importView } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** Upload chunk size: what the web process holds at once, and one `import_chunks` row. */
export const CHUNK_BYTES = 1024 * 1024;

export interface ImportUpload {
  kind: ImportKind;
  contentType: string | null;
  fileName?: string | null;
  body: AsyncIterable<Uint8Array> | null;
}

/** Per project: unfinished imports (uploading, queued or running) and the bytes their stored files may hold. */
export function importLimits(env = process.env) {
  const positive = (v: string | undefined, fallback: number) =>
    Number.isFinite(Number(v)) && Number(v) >= 1 ? Math.floor(Number(v)) : fallback;
  return {
    unfinished: positive(env.IMPORT_MAX_UNFINISHED, 2),
    storedBytes: positive(env.IMPORT_MAX_STORED_BYTES, 2 * MAX_IMPORT_BYTES),
  };
}

/** How long a client is told to wait when the project's imports are at their limit. */
const RETRY_AFTER_SECONDS = 60;

const UNFINISHED = sql`state in ('uploading', 'queued', 'running')`;

/**
 * Stores an uploaded CSV or NDJSON file in 1 MiB chunks as it streams in (never whole in memory), then
 * queues the import for the worker. Refused with nothing kept: a media type other than CSV/NDJSON or
 * content that is not text (415), more than 1 GiB (413, while reading), an empty file or one with no
 * rows, or an unusable CSV header (400).
 */
export async function createImport(ctx: ProjectContext<Db>, upload: ImportUpload) {
  const format = formatOf(upload.contentType);
  if (!format) throw new UnsupportedMediaType("Send the file as `text/csv` or `application/x-ndjson`.");
  const limits = importLimits();
  // Counted and inserted under a per-project lock, so uploads started at once cannot all pass the count.
  const row = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`imports:${ctx.projectId}`}, 0))`);
    const [held] = await queryRows<{ n: number; bytes: number }>(
      tx,
      sql`select count(*)::int as n, coalesce(sum(bytes), 0)::float8 as bytes from imports
          where project_id = ${ctx.projectId}::uuid and ${UNFINISHED}`,
    );
    if (held!.n >= limits.unfinished)
      throw new RateLimited(
        `The project already has ${held!.n} unfinished imports (at most ${limits.unfinished}); wait for one to finish or cancel one.`,
        { headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
      );
    if (held!.bytes >= limits.storedBytes) throw storageFull(limits.storedBytes);
    const [inserted] = await tx
      .insert(imports)
      .values({ projectId: ctx.projectId, kind: upload.kind, format, fileName: upload.fileName?.slice(0, 255) ?? null })
      .returning();
    return inserted!;
  });
  const id = row.id;
  try {
    const sniff = new Sniffer(format, upload.kind);
    let bytes = 0; // read so far
    let stored = 0; // in chunks so far
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!pendingBytes) return;
      const chunk = Buffer.concat(pending, pendingBytes);
      if (seq === 0) sniff.first(chunk);
      await ctx.db.insert(importChunks).values({ projectId: ctx.projectId, importId: id, seq: seq++, bytes: chunk });
      stored += chunk.byteLength;
      pending = [];
      pendingBytes = 0;
      // The bytes stored so far count against the project's limit at once; `updated_at` shows the upload is
      // alive (a stale one is swept). A cancel while uploading is seen here, at the next chunk.
      const [held] = await queryRows<{ others: number }>(
        ctx.db,
        sql`update imports set bytes = ${stored}, updated_at = now()
            where project_id = ${ctx.projectId}::uuid and id = ${id}::uuid and state = 'uploading'
            returning (select coalesce(sum(o.bytes), 0)::float8 from imports o
                       where o.project_id = ${ctx.projectId}::uuid and o.id <> ${id}::uuid and o.state in ('uploading', 'queued', 'running')) as others`,
      );
      if (!held) throw cancelledWhileUploading();
      if (held.others + stored > limits.storedBytes) throw storageFull(limits.storedBytes, stored);
    };
    for await (const part of upload.body ?? []) {
      bytes += part.byteLength;
      if (bytes > MAX_IMPORT_BYTES)
        throw new PayloadTooLarge(`An import file is at most ${MAX_IMPORT_BYTES} bytes (1 GiB).`);
      sniff.scan(part);
      let offset = 0;
      while (offset < part.byteLength) {
        const take = Math.min(CHUNK_BYTES - pendingBytes, part.byteLength - offset);
        pending.push(Buffer.from(part.buffer, part.byteOffset + offset, take));
        pendingBytes += take;
        offset += take;
        if (pendingBytes === CHUNK_BYTES) await flush();
      }
    }
    await flush();
    sniff.finish();
    const [queued] = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify(${IMPORTS_CHANNEL}, '')`);
      // Only an upload still `uploading` is queued: one cancelled (or swept) meanwhile stays as it is.
      return tx
        .update(imports)
        .set({ state: "queued", bytes, chunks: seq, updatedAt: new Date() })
        .where(and(eq(imports.projectId, ctx.projectId), eq(imports.id, id), eq(imports.state, "uploading")))
        .returning();
    });
    if (!queued) throw cancelledWhileUploading();
    return importView(queued);
  } catch (err) {
    // A cancelled upload keeps its row (the cancel is on record) but none of its chunks; any other failure keeps nothing.
    if (err instanceof RuleBroken)
      await ctx.db
        .delete(importChunks)
        .where(and(eq(importChunks.projectId, ctx.projectId), eq(importChunks.importId, id)));
    else
      await ctx.db
        .delete(imports)
        .where(and(eq(imports.projectId, ctx.projectId), eq(imports.id, id), eq(imports.state, "uploading")));
    throw err;
  }
}

const cancelledWhileUploading = () => new RuleBroken("The import was cancelled while it was uploading.");

function storageFull(limit: number, bytes?: number) {
  if (bytes !== undefined && bytes > limit)
    return new PayloadTooLarge(
      `The file is larger than the ${limit} bytes this project may hold in unfinished imports.`,
    );
  return new RateLimited(
    `The project's unfinished imports already hold close to ${limit} bytes; wait for one to finish or cancel one.`,
    { headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
  );
}

/** Checks while streaming that the upload is text of the announced format with at least one row. */
class Sniffer {
  private contentLines = 0;
  private lineHasContent = false;
  constructor(
    private format: "csv" | "ndjson",
    private kind: ImportKind,
  ) {}

  /** Counts non-blank lines (up to the two that prove a CSV has a row after its header). */
  scan(part: Uint8Array) {
    if (this.contentLines >= 2) return;
    for (const b of part) {
      if (b === 0) throw new UnsupportedMediaType("The file is binary, not CSV or NDJSON.");
      if (b === 10) {
        if (this.lineHasContent) this.contentLines++;
        this.lineHasContent = false;
      } else if (b !== 13 && b !== 32 && b !== 9) this.lineHasContent = true;
      if (this.contentLines >= 2) return;
    }
  }

  /** The first chunk holds the header (CSV) or the first record (NDJSON). */
  first(chunk: Buffer) {
    if (chunk.subarray(0, 65536).includes(0)) throw new UnsupportedMediaType("The file is binary, not CSV or NDJSON.");
    const text = chunk.toString("utf8").replace(/^\uFEFF/, "");
    const firstLine = text.split("\n").find((l) => l.trim() !== "");
    if (firstLine === undefined) return; // blank so far: finish() answers 400 if it stays blank
    if (this.format === "ndjson") {
      if (!firstLine.trimStart().startsWith("{"))
        throw new UnsupportedMediaType("The file is not NDJSON: each line must be one JSON object.");
      return;
    }
    let header: string[];
    try {
      header = (parse(firstLine, { relax_quotes: true }) as string[][])[0]!.map((c) => c.trim());
    } catch {
      throw new Invalid("The CSV header row cannot be read.");
    }
    const problems = headerProblems(this.kind, header);
    if (problems.length) {
      throw new Invalid(`The CSV header is not usable for ${this.kind}: ${problems.join("; ")}.`, {
        errors: problems.map((message) => ({ path: "header", message })),
      });
    }
  }

  finish() {
    const lines = this.contentLines + (this.lineHasContent ? 1 : 0);
    if (lines === 0) throw new Invalid("The file is empty.");
    if (this.format === "csv" && lines < 2) throw new Invalid("The CSV file has a header but no rows.");
  }
}
