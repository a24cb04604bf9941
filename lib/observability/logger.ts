import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { logContext } from "./log-context";
import { processSingleton } from "@/lib/process/singleton";

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
  [/((?:postgres(?:ql)?|smtps?):\/\/[^:/@\s]+:)[^@\s]+@/gi, "$1[redacted]@"],
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
    serializers: { err: (e: unknown) => compactError(e) },
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

/**
 * An error as one short log field: its type, message, code (and PostgreSQL's detail fields), a stack cut
 * to a few frames, and its cause the same way. Nothing else of the object: a driver's error carries its
 * client, connection and query (thousands of characters a line, and connection internals).
 */
export function compactError(e: unknown, depth = 0): unknown {
  if (!(e instanceof Error)) {
    if (e === null || e === undefined || typeof e !== "object") return e;
    return { message: scrubSecrets(String((e as { message?: unknown }).message ?? "non-error object")).slice(0, 1000) };
  }
  const out: Record<string, unknown> = { type: e.name, message: scrubSecrets(e.message).slice(0, 1000) };
  const fields = e as unknown as Record<string, unknown>;
  for (const k of ["code", "severity", "detail", "constraint_name", "table_name"])
    if (typeof fields[k] === "string" || typeof fields[k] === "number")
      out[k] = typeof fields[k] === "string" ? scrubSecrets(fields[k] as string).slice(0, 300) : fields[k];
  if (e.stack) out.stack = scrubSecrets(e.stack.split("\n").slice(0, 12).join("\n")).slice(0, 2000);
  if (e.cause !== undefined && depth < 2) out.cause = compactError(e.cause, depth + 1);
  return out;
}

/** The process-wide logger (JSON in production and tests, pretty in development; LOG_FORMAT overrides). */
export const log: Logger = processSingleton("logger", createLogger);
