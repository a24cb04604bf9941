import { AsyncLocalStorage } from "node:async_hooks";

/** What every log line of one request or one job carries. */
export interface LogContext {
  reqId?: string;
  jobId?: string;
  queue?: string;
}

// On globalThis: Next bundles route handlers into separate chunks, and each would otherwise get its own store.
const KEY = Symbol.for("relay.logContext");
const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<LogContext> | undefined>;
export const logContext: AsyncLocalStorage<LogContext> = (g[KEY] ??= new AsyncLocalStorage<LogContext>());

/** Runs `fn` with `ctx` attached to every log line it writes, including lines from awaited callees. */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return logContext.run({ ...logContext.getStore(), ...ctx }, fn);
}
