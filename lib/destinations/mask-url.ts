/**
 * A destination URL as shown after create: its origin and first path segment, the rest of the path and
 * any query replaced by `…`. Slack- and Discord-style webhook URLs carry their secret there, and every
 * reader (a support key too) and the request log would otherwise hold it. The full URL is answered once,
 * at create (like the signing secret), and whoever changes it knows it.
 */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "…";
  }
  const [first, ...rest] = u.pathname.slice(1).split("/");
  const path = rest.some(Boolean) ? `/${first}/…` : u.pathname;
  return `${u.protocol}//${u.host}${path}${u.search ? "?…" : ""}`;
}
