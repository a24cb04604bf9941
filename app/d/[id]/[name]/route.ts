import { readDocument } from "@/lib/documents/read-document";
import { publicRoute } from "@/lib/http/public-route";

type Params = { id: string; name: string };

/**
 * A document (an image in a mail) for anyone with its URL: the sniffed content-type, never sniffed again
 * by the browser, a policy under which nothing in it runs, and cacheable for a year (a new upload is a
 * new URL). Counted against the caller address's public budget.
 */
export const GET = publicRoute<Params>(async (req, { db, params }) => {
  const d = await readDocument({ db }, { id: params.id, name: params.name });
  if (!d) return new Response("Not found", { status: 404, headers: { "cache-control": "no-store" } });
  const etag = `"${d.sha256}"`;
  const headers = {
    "content-type": d.contentType,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": "public, max-age=31536000, immutable",
    "cross-origin-resource-policy": "cross-origin",
    etag,
  };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(Buffer.from(d.bytes), { headers });
});
