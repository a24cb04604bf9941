import { PayloadTooLarge } from "./errors";

export const MAX_FORM_BYTES = 64 * 1024;

/**
 * An `application/x-www-form-urlencoded` body as ordered pairs (a signature may cover them all).
 * Anything else, or an empty body, reads as no fields: public form endpoints must not fail on odd clients.
 */
export async function readForm(req: Request, limit = MAX_FORM_BYTES): Promise<URLSearchParams> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLarge(`The form is over ${limit / 1024} KiB.`);
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "multipart/form-data") {
    const data = await req.formData().catch(() => null);
    const out = new URLSearchParams();
    data?.forEach((v, k) => typeof v === "string" && out.append(k, v));
    return out;
  }
  const text = await req.text();
  if (Buffer.byteLength(text) > limit) throw new PayloadTooLarge(`The form is over ${limit / 1024} KiB.`);
  return type === "application/x-www-form-urlencoded" ? new URLSearchParams(text) : new URLSearchParams();
}
