import { deleteDocument } from "@/lib/documents/delete-document";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

type Params = { projectID: string; id: string };

export const DELETE = adminRoute<Params>("documents.write", { status: 204 }, (_req, ctx, p) =>
  deleteDocument(ctx, readRecordId(p.id, "document")),
);
