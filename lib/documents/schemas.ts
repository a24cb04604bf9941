import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";

/** The largest document: 5 MB. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

export const documentOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    content_type: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]).meta({
      description:
        "What the bytes are (sniffed at upload), whatever the file's name or the upload's content-type said.",
    }),
    size: z.number().int(),
    url: z
      .string()
      .meta({ description: "Public and cacheable: `<origin>/d/<id>/<name>`, for templates' `<img src>`." }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Document" });

export const uploadDocumentForm = z
  .object({
    file: z.string().meta({ format: "binary", description: "A PNG, JPEG, GIF or WebP image of at most 5 MB." }),
  })
  .meta({ id: "UploadDocument" });

export const listDocumentsQuery = paginationQuery;
