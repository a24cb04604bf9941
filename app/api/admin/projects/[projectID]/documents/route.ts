import { uploadDocument } from "@/lib/documents/upload-document";
import { listDocuments } from "@/lib/documents/list-documents";
import { listDocumentsQuery, MAX_DOCUMENT_BYTES } from "@/lib/documents/schemas";
import { Invalid, UnsupportedMediaType } from "@/lib/http/errors";
import { readQuery } from "@/lib/http/pagination";
import { publicOrigin } from "@/lib/http/public-origin";
import { readLimited } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute("messages.read", (req, ctx) =>
  listDocuments(ctx, { ...readQuery(req, listDocumentsQuery), origin: publicOrigin(req) }),
);

/** multipart/form-data with one `file`: the body is bounded before it is parsed. */
export const POST = adminRoute("documents.write", { status: 201 }, async (req, ctx) => {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType))
    throw new UnsupportedMediaType("Upload a document as multipart/form-data with a `file` field.");
  const body = await readLimited(req, MAX_DOCUMENT_BYTES + 64 * 1024);
  const form = await new Response(Buffer.from(body), { headers: { "content-type": contentType } })
    .formData()
    .catch(() => null);
  const file = form?.get("file");
  if (!file || typeof file === "string")
    throw new Invalid("The form has no `file`.", { errors: [{ path: "file", message: "a file is required" }] });
  return uploadDocument(ctx, {
    name: file.name,
    bytes: new Uint8Array(await file.arrayBuffer()),
    origin: publicOrigin(req),
  });
});
