import { sql } from "drizzle-orm";
import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt, uuidV7 } from "./columns";
import { belongsTo, projectIdColumn } from "./project-column";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export interface ImportRowError {
  /** Line of the file where the row ends (the CSV header is line 1). */
  line: number;
  message: string;
}

/**
 * A bulk import of users, organizations or memberships from an uploaded CSV or NDJSON file. The worker
 * applies it in batches; `rows_done` is the checkpoint, committed with each batch's rows, so an import
 * resumes after a crash where the last committed batch ended (no row applied twice, none lost).
 * `lease_until` keeps two workers from applying one import at once.
 */
export const imports = pgTable(
  "imports",
  {
    projectId: projectIdColumn(),
    id: uuidV7().notNull(),
    kind: text().$type<"users" | "organizations" | "memberships">().notNull(),
    format: text().$type<"csv" | "ndjson">().notNull(),
    /** uploading → queued → running → done | failed | cancelled */
    state: text()
      .$type<"uploading" | "queued" | "running" | "done" | "failed" | "cancelled">()
      .notNull()
      .default("uploading"),
    fileName: text(),
    bytes: bigint({ mode: "number" }).notNull().default(0),
    chunks: integer().notNull().default(0),
    /** Rows read so far (all of them once done). */
    rows: integer().notNull().default(0),
    /** Rows applied. */
    processed: integer().notNull().default(0),
    /** Rows refused (each a row error; the first 1,000 are kept in `errors`). */
    failed: integer().notNull().default(0),
    /** Checkpoint: rows consumed (applied or refused) by committed batches. */
    rowsDone: integer().notNull().default(0),
    bytesDone: bigint({ mode: "number" }).notNull().default(0),
    errors: jsonb().$type<ImportRowError[]>().notNull().default([]),
    /** Why the whole import failed (an unreadable file), when state is failed. */
    error: text(),
    /** Claims that took the import over from a worker that died holding it; at 2 the import is failed. */
    takeovers: integer().notNull().default(0),
    leaseOwner: uuid(),
    leaseUntil: timestamptz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // The worker's claim looks only at unfinished imports.
    index("imports_pending_idx").on(t.createdAt).where(sql`${t.state} in ('queued', 'running')`),
  ],
);

/**
 * The uploaded file, in 1 MiB chunks, until the import finishes: in the database so any worker host can
 * read it and an upload survives a web restart, with no shared directory to configure.
 */
export const importChunks = pgTable(
  "import_chunks",
  {
    projectId: uuid().notNull(),
    importId: uuid().notNull(),
    seq: integer().notNull(),
    bytes: bytea().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.importId, t.seq] }), belongsTo(t.projectId, t.importId, imports)],
);

export type Import = typeof imports.$inferSelect;
