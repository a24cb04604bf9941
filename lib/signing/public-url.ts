/**
 * The origin that links in messages point at: RELAY_PUBLIC_URL when set (behind a proxy the request's
 * own Host may be internal), else the origin the request arrived on.
 */
export function publicOrigin(req?: Request): string {
  const configured = process.env.RELAY_PUBLIC_URL?.replace(/\/+$/, "");
  if (configured) return configured;
  if (req) return new URL(req.url).origin;
  return "http://localhost:3000";
}
