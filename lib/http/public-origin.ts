import { log } from "@/lib/observability/logger";

/**
 * The one origin people reach Relay at. Every absolute URL we make (magic links, invitation mail,
 * unsubscribe and preference links, tracked links, next-auth redirects, the OpenAPI `servers` entry)
 * comes from here. `AUTH_URL` is the documented variable (next-auth reads it too); `APP_URL` and
 * `RELAY_PUBLIC_URL` are accepted as aliases for one release, with a warning.
 *
 * In production the configured value is the only source: a Host or X-Forwarded-Host header is sent by
 * the client and could otherwise put an attacker's host into a real mail carrying a sign-in token. The
 * server refuses to start without it (assertPublicOriginConfigured). In development, without it, the
 * origin is derived from the request so `npm run dev` works on any port.
 */

const ALIASES = ["APP_URL", "RELAY_PUBLIC_URL"] as const;
let warned = false;

export class PublicOriginMissing extends Error {
  constructor() {
    super(
      "AUTH_URL is not set: set it to the public origin people reach Relay at (e.g. AUTH_URL=https://relay.example.com) before starting in production.",
    );
  }
}

/** The configured origin (`https://relay.example.com`), or null. Throws on a value that is not an http(s) URL. */
export function configuredOrigin(env: NodeJS.ProcessEnv = process.env): string | null {
  let raw = env.AUTH_URL;
  if (!raw) {
    const alias = ALIASES.find((name) => env[name]);
    if (!alias) return null;
    raw = env[alias]!;
    if (!warned && env === process.env) {
      warned = true;
      log.warn(`${alias} is deprecated: set AUTH_URL=${raw} instead (read as AUTH_URL for now).`);
    }
    // next-auth reads AUTH_URL itself (server actions, auth()): give it the same value.
    if (env === process.env) process.env.AUTH_URL = raw;
  }
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`AUTH_URL must be an http(s) URL, got ${url.protocol}`);
  return url.origin;
}

/** One clear line and a refusal to start, for production processes that make absolute URLs. */
export function assertPublicOriginConfigured(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV !== "production") return;
  if (!configuredOrigin(env)) throw new PublicOriginMissing();
}

/** The host of a request, as development may trust it: a plain host[:port], never anything else. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The public origin. `req` is consulted only in development without AUTH_URL (the Host it came to;
 * Next's own `req.url` names the bind address, normalized to `localhost`, so it is the last resort).
 */
export function publicOrigin(req?: Request): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  if (process.env.NODE_ENV === "production") throw new PublicOriginMissing();
  if (!req) return `http://localhost:${process.env.PORT ?? 3000}`;
  const first = (v: string | null) => v?.split(",")[0]?.trim() || null;
  const host = first(req.headers.get("x-forwarded-host")) ?? req.headers.get("host");
  const proto = first(req.headers.get("x-forwarded-proto")) ?? new URL(req.url).protocol.slice(0, -1);
  return host && HOST.test(host) && (proto === "http" || proto === "https")
    ? `${proto}://${host}`
    : new URL(req.url).origin;
}

/** For a process entry point: one clear line on stderr and exit 1 when production has no public origin. */
export function exitUnlessPublicOriginConfigured(env: NodeJS.ProcessEnv = process.env): void {
  try {
    assertPublicOriginConfigured(env);
  } catch (err) {
    log.fatal(`[relay] ${(err as Error).message}`); // the "[relay]" prefix is what operators and tests grep for
    process.exit(1);
  }
}
