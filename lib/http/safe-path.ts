/** Where a person lands after signing in when no (acceptable) target was given. */
export const DEFAULT_LANDING = "/projects";

/** A placeholder origin for resolving relative paths; only whether the result stays on it matters. */
const HERE = "http://relay.invalid";

/**
 * The one check for every redirect target we take from a request (`callbackUrl`, `redirectTo`): a path
 * on our own origin, or DEFAULT_LANDING. Browsers read `//host` and `/\host` as another host, and drop
 * tabs and newlines before parsing (`/\t/host`), so those are refused outright; anything else is
 * resolved as a browser would and must stay on our origin. An absolute URL is accepted only when its
 * origin is `origin` (the configured public origin), and is turned into its path.
 */
export function safePath(value: unknown, origin?: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return DEFAULT_LANDING;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_LANDING;
  let url: URL;
  if (value.startsWith("/")) {
    if (value.startsWith("//")) return DEFAULT_LANDING;
    url = new URL(value, HERE);
    if (url.origin !== HERE) return DEFAULT_LANDING;
  } else {
    if (!origin) return DEFAULT_LANDING;
    try {
      url = new URL(value);
    } catch {
      return DEFAULT_LANDING;
    }
    if (url.origin !== origin) return DEFAULT_LANDING;
  }
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? DEFAULT_LANDING : path;
}
