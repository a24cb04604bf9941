/**
 * The origin that links in messages point at: RELAY_PUBLIC_URL when set (behind a proxy the request's
 * own Host may be internal), else the Host the request came to (Next normalizes req.url's host, so the
 * header is the truth), else req.url's origin.
 */
export function publicOrigin(req?: Request): string {
  const configured = process.env.RELAY_PUBLIC_URL?.replace(/\/+$/, "");
  if (configured) return configured;
  if (!req) return "http://localhost:3000";
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || req.headers.get("host");
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(":", "");
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) && /^https?$/.test(proto) ? `${proto}://${host}` : url.origin;
}
