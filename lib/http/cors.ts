import { Forbidden } from "./errors";
import { PROBLEM_JSON } from "./problem";

/**
 * Browser access with an API key (CORS). Server-to-server callers send no `Origin`; a browser always
 * does on a cross-origin fetch. So a request with an `Origin` is accepted only when the key lists that
 * exact origin in `allowed_origins`; a key without the setting refuses every browser. This is checked on
 * the real request, which carries the key: a preflight carries no credential and cannot be tied to a key.
 */

/** The methods and headers the browser SDK uses: write-only ingestion. */
const ALLOW_METHODS = "POST, OPTIONS";
const ALLOW_HEADERS = "Authorization, Content-Type";
/** Headers a page's script may read: the SDK honours Retry-After and the rate-limit budget. */
const EXPOSE_HEADERS = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";

/**
 * The CORS headers for a request made with a key, or `{}` without an `Origin`. Throws 403 when the key
 * does not list the origin (no CORS header on that answer: the page's script cannot read it either).
 */
export function checkOrigin(req: Request, allowedOrigins: string[] | null): Record<string, string> {
  const origin = req.headers.get("origin");
  if (origin === null) return {};
  if (!allowedOrigins?.includes(origin)) {
    throw new Forbidden(
      allowedOrigins
        ? `This API key does not accept requests from the origin ${JSON.stringify(origin.slice(0, 300))}; add it to the key's allowed_origins.`
        : "This API key does not accept requests from browsers (the request has an Origin header). Give a client key allowed_origins to use it from a web page.",
    );
  }
  return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSE_HEADERS, vary: "Origin" };
}

/**
 * `OPTIONS` on the routes a browser key may call. The preflight has no Authorization header, so it cannot
 * know the key's origins; it answers every well-formed origin and the real request is checked (refused
 * with 403 and no CORS header when the origin is not the key's). It reads nothing and writes nothing.
 */
export function preflight(req: Request): Response {
  const origin = req.headers.get("origin");
  const headers: Record<string, string> = { allow: ALLOW_METHODS, vary: "Origin" };
  if (origin !== null && isOrigin(origin)) {
    Object.assign(headers, {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": ALLOW_METHODS,
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": "7200",
    });
  }
  return new Response(null, { status: 204, headers });
}

export const MAX_ORIGIN_LENGTH = 255;

/** `scheme://host[:port]` exactly as a browser sends it in `Origin`: http(s), no path, lower-case host, no default port. */
export function isOrigin(value: string): boolean {
  if (value.length > MAX_ORIGIN_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * What a browser key sees of an answer. A public page's visitors must not read stored records back, so a
 * success answer becomes 202 with `toBrowser(body)` (erasing the 201/200 difference: "does this identifier
 * exist?"), and a problem keeps its type, title, detail and field errors but loses the `records` ids a 409
 * lists.
 */
export async function browserAnswer(res: Response, toBrowser: (body: unknown) => unknown): Promise<Response> {
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  if (res.ok) {
    const text = await res.text();
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify(toBrowser(text ? JSON.parse(text) : null)), { status: 202, headers });
  }
  if (!res.headers.get("content-type")?.includes(PROBLEM_JSON)) return res;
  const { type, title, status, detail, errors } = (await res.json()) as Record<string, unknown>;
  return new Response(JSON.stringify({ type, title, status, detail, ...(errors ? { errors } : {}) }), {
    status: res.status,
    headers,
  });
}
