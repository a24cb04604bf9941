/**
 * The origin people reach us at, for links in mail and redirects: APP_URL / AUTH_URL when configured,
 * else the Host the request came to (behind a proxy, X-Forwarded-Host/-Proto). Next's own `req.url`
 * may name its bind address instead, so it is the last resort.
 */
export function publicOrigin(req: Request): string {
  const configured = process.env.APP_URL ?? process.env.AUTH_URL;
  if (configured) return new URL(configured).origin;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (host) {
    const proto = req.headers.get("x-forwarded-proto") ?? new URL(req.url).protocol.replace(":", "");
    return `${proto}://${host}`;
  }
  return new URL(req.url).origin;
}
