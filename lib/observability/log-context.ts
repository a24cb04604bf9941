import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/process/singleton";

/** What every log line of one request or one job carries. */
export interface LogContext {
  reqId?: string;
  jobId?: string;
  queue?: string;
}

export const logContext: AsyncLocalStorage<LogContext> = processSingleton(
  "logContext",
  () => new AsyncLocalStorage<LogContext>(),
);

/** Runs `fn` with `ctx` attached to every log line it writes, including lines from awaited callees. */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return logContext.run({ ...logContext.getStore(), ...ctx }, fn);
}
