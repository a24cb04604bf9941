import { z } from "zod";
import type { Import } from "@/db/schema";

export const importOutput = z
  .object({
    id: z.uuid(),
    kind: z.enum(["users", "organizations", "memberships"]),
    format: z.enum(["csv", "ndjson"]),
    state: z.enum(["queued", "running", "done", "failed", "cancelled"]).meta({
      description:
        "`queued` until a worker takes it, `running`, then `done` (every row applied or refused), `failed` (unreadable file) or `cancelled`.",
    }),
    file_name: z.string().nullable(),
    bytes: z.number().int().meta({ description: "Size of the uploaded file." }),
    bytes_processed: z
      .number()
      .int()
      .meta({ description: "How far into the file committed batches reach (progress)." }),
    rows: z.number().int().meta({ description: "Rows read so far (all rows once done)." }),
    processed: z.number().int().meta({ description: "Rows applied." }),
    failed: z.number().int().meta({ description: "Rows refused, each with a row error." }),
    errors: z.array(z.object({ line: z.number().int(), message: z.string() })).meta({
      description: "The first 1,000 row errors, with the line of the file each row ends on (the CSV header is line 1).",
    }),
    error: z.string().nullable().meta({ description: "Why the import failed as a whole." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Import" });
export type ImportView = z.infer<typeof importOutput>;

export function importView(i: Import): ImportView {
  return {
    id: i.id,
    kind: i.kind,
    format: i.format,
    // An upload still streaming in is not visible as anything but queued.
    state: i.state === "uploading" ? "queued" : i.state,
    file_name: i.fileName,
    bytes: i.bytes,
    bytes_processed: i.state === "done" ? i.bytes : i.bytesDone,
    rows: i.rows,
    processed: i.processed,
    failed: i.failed,
    errors: i.errors,
    error: i.error,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
    finished_at: i.finishedAt?.toISOString() ?? null,
  };
}
