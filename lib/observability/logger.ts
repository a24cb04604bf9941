import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { logContext } from "./context";

/**
 * Paths redacted from every line: credentials must not reach log storage even when a whole request or
 * error object is logged. `*.` covers one level of nesting (pino's wildcard rules).
 */
export const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "cookie",
  "*.cookie",
  "headers.cookie",
  "*.headers.cookie",
  'headers["set-cookie"]',
  "apiKey",
  "*.apiKey",
  "api_key",
  "*.api_key",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "password",
  "*.password",
  "connectionString",
  "*.connectionString",
];

/** Secrets that sit inside strings (messages, URLs): API keys, bearer tokens, passwords in connection URLs, token paths. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\brk_[A-Za-z0-9_-]{6,}/g, "rk_[redacted]"],
  [/(bearer\s+)[^\s"']+/gi, "$1[redacted]"],
  [/(postgres(?:ql)?:\/\/[^:/@\s]+:)[^@\s]+@/gi, "$1[redacted]@"],
  [/(\/(?:l|u|unsubscribe|preferences|auth\/callback\/[^/\s]+)\/)[A-Za-z0-9._~%-]{16,}/g, "$1[redacted]"],
  [/([?&](?:token|code|secret|key)=)[^&\s"']+/gi, "$1[redacted]"],
];

export function scrubSecrets(text: string): string {
  let out = text;
  for (const [re, by] of SECRET_PATTERNS) out = out.replace(re, by);
  return out;
}

function format(env = process.env): "pretty" | "json" {
  if (env.LOG_FORMAT === "json" || env.LOG_FORMAT === "pretty") return env.LOG_FORMAT;
  return env.NODE_ENV === "production" || env.NODE_ENV === "test" ? "json" : "pretty";
}

/** A logger with Relay's options; `destination` replaces stdout (tests read what was written). */
export function createLogger(destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    // The request or job id of whatever is running, so every line of a request or job can be found by it.
    mixin: () => ({ proc: process.env.RELAY_PROCESS, ...logContext.getStore() }),
    hooks: {
      // Scrub the message and string arguments: a secret interpolated into a message is not caught by `redact`.
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === "string" ? scrubSecrets(a) : a)) as Parameters<typeof method>);
      },
    },
    serializers: { err: (e: unknown) => scrubError(e) },
  };
  // Pretty printing on the main thread (no transport worker): Next's bundled route handlers cannot load transport workers.
  if (destination) return pino(options, destination);
  return format() === "pretty"
    ? pino(
        options,
        pretty({
          sync: true,
          colorize: process.stdout.isTTY,
          ignore: "pid,hostname,proc",
          messageFormat: "{if proc}[{proc}] {end}{msg}",
        }),
      )
    : pino(options);
}

function scrubError(e: unknown) {
  const s = pino.stdSerializers.err(e as Error) as unknown as Record<string, unknown>;
  if (!s || typeof s !== "object") return s;
  for (const k of ["message", "stack"]) if (typeof s[k] === "string") s[k] = scrubSecrets(s[k] as string);
  return s;
}

const KEY = Symbol.for("relay.logger");
const g = globalThis as unknown as Record<symbol, Logger | undefined>;

/** The process-wide logger (JSON in production and tests, pretty in development; LOG_FORMAT overrides). */
export const log: Logger = (g[KEY] ??= createLogger());
