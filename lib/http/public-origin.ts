/** The origin for links in mail: APP_URL / AUTH_URL when configured, else the origin the request came to. */
export function publicOrigin(req: Request): string {
  const configured = process.env.APP_URL ?? process.env.AUTH_URL;
  if (configured) return new URL(configured).origin;
  return new URL(req.url).origin;
}
