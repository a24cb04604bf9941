import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { log } from "@/lib/observability/logger";
import { type ComposedMail, composeMail, type OutgoingEmail } from "./compose-mail";
import type { DkimKey } from "./dkim";

/*
 * Composing and DKIM-signing e-mail on threads beside the sender's. The worker's one thread was the
 * limit of a broadcast (docs/decisions/0031): about a millisecond of CPU a message, most of it MIME
 * building and, with DKIM, an RSA signature, while the SMTP exchanges themselves wait on the network. The
 * sender keeps claiming, rendering, talking SMTP and recording; each message's bytes are made here.
 * Without started threads (the web process, tests that send in process) messages are composed in line.
 */

interface Thread {
  worker: Worker;
  jobs: Map<number, { resolve: (c: ComposedMail) => void; reject: (e: Error) => void }>;
}

let threads: Thread[] = [];
let nextId = 0;
let stopping = false;

function spawn(): Thread {
  const thread: Thread = {
    // The thread runs TypeScript as the worker does: under tsx (inherited, or added where the caller, a
    // test runner say, has its own loader).
    worker: new Worker(new URL("./compose-thread.ts", import.meta.url), {
      execArgv: process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : ["--import", "tsx"],
    }),
    jobs: new Map(),
  };
  thread.worker.on("message", (m: { id: number; composed?: ComposedMail; error?: string }) => {
    const job = thread.jobs.get(m.id);
    if (!job) return;
    thread.jobs.delete(m.id);
    // Structured cloning hands a Buffer over as a plain Uint8Array.
    if (m.composed) job.resolve({ ...m.composed, raw: Buffer.from(m.composed.raw) });
    else job.reject(new Error(m.error ?? "composing failed"));
  });
  const lost = (err: Error) => {
    for (const job of thread.jobs.values()) job.reject(err);
    thread.jobs.clear();
    const i = threads.indexOf(thread);
    if (i < 0) return;
    // A thread that died is replaced; its messages fail as transient and are sent again.
    if (stopping) threads.splice(i, 1);
    else {
      log.error({ err }, "a compose thread stopped; starting another");
      threads[i] = spawn();
    }
  };
  thread.worker.on("error", lost);
  thread.worker.on("exit", (code) => lost(new Error(`compose thread exited (${code})`)));
  thread.worker.unref();
  return thread;
}

/** MESSAGES_COMPOSE_THREADS, else one fewer than the cores (at least one): the sender keeps a core. */
export function composeThreadCount(env = process.env): number {
  const set = Number(env.MESSAGES_COMPOSE_THREADS);
  return Number.isInteger(set) && set >= 0 ? set : Math.max(1, availableParallelism() - 1);
}

/** Starts `n` compose threads (MESSAGES_COMPOSE_THREADS); 0 keeps composing on the calling thread. */
export function startComposeThreads(n: number): void {
  stopping = false;
  for (let i = threads.length; i < n; i++) threads.push(spawn());
}

export async function stopComposeThreads(): Promise<void> {
  stopping = true;
  const all = threads;
  threads = [];
  await Promise.all(all.map((t) => t.worker.terminate()));
}

/** The running threads' workers (tests end one to see its messages fail and a new one take over). */
export function composeThreadWorkers(): Worker[] {
  return threads.map((t) => t.worker);
}

/** A message's signed bytes and envelope: on the least busy compose thread, or here when none runs. */
export function composeForSending(mail: OutgoingEmail, dkim: DkimKey | null): Promise<ComposedMail> {
  if (!threads.length) return composeMail(mail, dkim);
  const thread = threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    thread.jobs.set(id, { resolve, reject });
    thread.worker.postMessage({ id, mail, dkim });
  });
}
