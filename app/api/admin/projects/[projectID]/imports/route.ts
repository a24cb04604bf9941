import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { createImport } from "@/lib/imports/create-import";
import { importKindQuery, MAX_IMPORT_BYTES } from "@/lib/imports/formats";
import { withBodyStream } from "@/lib/http/read-json";
import { listImports } from "@/lib/imports/list-imports";

/** The body is the file itself (text/csv or application/x-ndjson), streamed into storage, never read whole. */
export const POST = adminRoute("imports.write", { status: 202 }, async (req, ctx) => {
  const { kind } = readQuery(req, importKindQuery);
  const fileName = decodeFileName(req.headers.get("x-file-name"));
  // A gzip- or deflate-encoded upload is decompressed as it streams in (lib/http/read-json.ts).
  return withBodyStream(req, MAX_IMPORT_BYTES, (body) =>
    createImport(ctx, { kind, contentType: req.headers.get("content-type"), fileName, body }),
  );
});

export const GET = adminRoute("imports.read", async (_req, ctx) => ({ data: await listImports(ctx) }));

/** `X-File-Name` is percent-encoded (header values are ASCII); a name that does not decode is kept as sent. */
function decodeFileName(raw: string | null): string | null {
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
