import { Forbidden } from "@/lib/http/errors";
import { publicOrigin } from "@/lib/http/public-origin";

/**
 * Defence in depth for cookie-authenticated writes (the session cookie is SameSite=Lax already): a
 * browser request that names another origin may not change anything with the console session.
 */
export function assertSameOriginWrite(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  if (origin && origin !== publicOrigin(req))
    throw new Forbidden("Cross-site requests cannot use the console session.");
}
