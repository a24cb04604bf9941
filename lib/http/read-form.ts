import { readLimited } from "./read-json";

export const MAX_FORM_BYTES = 64 * 1024;

/**
 * An `application/x-www-form-urlencoded` (or multipart) body as ordered pairs (a signature may cover them
 * all). Read through the same bounded reader as JSON bodies, so a chunked body cannot make us buffer more
 * than the limit. Anything else, or an empty body, reads as no fields: public form endpoints must not fail
 * on odd clients.
 */
export async function readForm(req: Request, limit = MAX_FORM_BYTES): Promise<URLSearchParams> {
  const contentType = req.headers.get("content-type") ?? "";
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const bytes = await readLimited(req, limit);
  if (type === "multipart/form-data") {
    const data = await new Response(Buffer.from(bytes), { headers: { "content-type": contentType } })
      .formData()
      .catch(() => null);
    const out = new URLSearchParams();
    for (const [k, v] of data?.entries() ?? []) if (typeof v === "string") out.append(k, v);
    return out;
  }
  return type === "application/x-www-form-urlencoded"
    ? new URLSearchParams(Buffer.from(bytes).toString("utf8"))
    : new URLSearchParams();
}
