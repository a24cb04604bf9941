import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { parse } from "csv-parse";
import type { DbOrTx } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { importChunks, type Import } from "@/db/schema";
import { textShape } from "@/lib/http/json-shape";
import { csvRowToBody, MAX_ROW_BYTES, MAX_ROW_DEPTH, MAX_ROW_VALUES } from "./formats";

/** One row of an import file: its body to validate, or why it could not even be read. */
export interface FileRow {
  /** 0-based position among the file's rows (the checkpoint counts these). */
  index: number;
  /** Line of the file the row ends on (1-based; the CSV header is line 1). */
  line: number;
  /** Bytes of the file consumed once this row is read (progress). */
  bytes: number;
  body?: unknown;
  error?: string;
}

/** The stored upload, chunk by chunk (one 1 MiB chunk in memory at a time). */
async function* chunks(db: DbOrTx, imp: Import): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < imp.chunks; seq++) {
    const [row] = await db
      .select({ bytes: importChunks.bytes })
      .from(importChunks)
      .where(
        and(eq(importChunks.projectId, imp.projectId), eq(importChunks.importId, imp.id), eq(importChunks.seq, seq)),
      );
    // The stored file is gone (the import was cancelled or swept meanwhile): the import cannot go on.
    if (!row)
      throw Object.assign(new Error(`The stored file is incomplete (part ${seq} is missing).`), {
        code: "IMPORT_CHUNK_MISSING",
      });
    yield Buffer.from(row.bytes);
  }
}

/** Every row of the file in order, streamed; a malformed row is a row with an error, never the end. */
export function readRows({ db }: AppContext, imp: Import): AsyncGenerator<FileRow> {
  return imp.format === "csv" ? csvRows(db, imp) : ndjsonRows(db, imp);
}

async function* csvRows(db: DbOrTx, imp: Import): AsyncGenerator<FileRow> {
  const skipped: { line: number; message: string }[] = [];
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    // A stray quote inside a cell keeps it as text (a row error if invalid) instead of derailing the rows after it.
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_ROW_BYTES,
    on_skip: (err) => {
      skipped.push({
        line: Number((err as { lines?: number } | undefined)?.lines ?? 0),
        message: `malformed CSV: ${err?.message ?? "unreadable row"}`,
      });
    },
  });
  Readable.from(chunks(db, imp)).pipe(parser);
  let header: string[] | null = null;
  let index = 0;
  let bytes = 0;
  const drainSkipped = function* (upTo: number) {
    skipped.sort((a, b) => a.line - b.line);
    while (skipped.length && skipped[0]!.line <= upTo) {
      const s = skipped.shift()!;
      yield { index: index++, line: s.line, bytes, error: s.message } satisfies FileRow;
    }
  };
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number; bytes: number };
  }>) {
    bytes = info.bytes;
    if (!header) {
      header = record.map((c) => c.trim());
      skipped.length = 0; // the header was checked at upload
      continue;
    }
    yield* drainSkipped(info.lines - 1);
    if (record.length > header.length) {
      yield {
        index: index++,
        line: info.lines,
        bytes,
        error: `${record.length} cells, but the header has ${header.length} columns`,
      };
      continue;
    }
    yield { index: index++, line: info.lines, bytes, body: csvRowToBody(imp.kind, header, record) };
  }
  yield* drainSkipped(Number.MAX_SAFE_INTEGER);
}

async function* ndjsonRows(db: DbOrTx, imp: Import): AsyncGenerator<FileRow> {
  let index = 0;
  let line = 0;
  let bytes = 0;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let oversized = false;
  const row = (raw: Buffer): FileRow | null => {
    line++;
    bytes += raw.byteLength + 1;
    // A line may sit whole inside one stored chunk (up to 1 MiB): its length is checked here too.
    if (oversized || raw.byteLength > MAX_ROW_BYTES)
      return { index: index++, line, bytes, error: `line longer than ${MAX_ROW_BYTES} bytes` };
    // Bounded by depth and by the number of values on the text, before JSON.parse makes a single object.
    const shape = textShape(raw, { maxDepth: MAX_ROW_DEPTH, maxValues: MAX_ROW_VALUES });
    if (shape.depth > MAX_ROW_DEPTH)
      return { index: index++, line, bytes, error: `nested deeper than ${MAX_ROW_DEPTH} levels` };
    if (shape.values > MAX_ROW_VALUES)
      return { index: index++, line, bytes, error: `more than ${MAX_ROW_VALUES} JSON values` };
    const text = raw.toString("utf8").trim();
    if (!text) return null;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { index: index++, line, bytes, error: "malformed JSON" };
    }
    return { index: index++, line, bytes, body };
  };
  for await (const chunk of chunks(db, imp)) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const raw = carryBytes ? Buffer.concat([...carry, piece]) : piece;
      const r = row(oversized ? Buffer.alloc(0) : raw);
      carry = [];
      carryBytes = 0;
      oversized = false;
      if (r) yield r;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    // Bound every row before parsing: an overlong line is dropped as it streams and becomes one row error.
    if (!oversized && carryBytes + rest.byteLength > MAX_ROW_BYTES) {
      oversized = true;
      bytes += carryBytes;
      carry = [];
      carryBytes = 0;
    }
    if (oversized) bytes += rest.byteLength;
    else if (rest.byteLength) {
      carry.push(Buffer.from(rest));
      carryBytes += rest.byteLength;
    }
  }
  if (carryBytes || oversized) {
    const r = row(Buffer.concat(carry));
    if (r) yield r;
  }
}
