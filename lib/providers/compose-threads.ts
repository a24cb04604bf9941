import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { log } from "@/lib/observability/logger";
import { SMTP_CONNECTIONS } from "./smtp-pool";
import { type SmtpSend, sendSmtpHere } from "./smtp-send";
import type { SendResult } from "./send-result";

/*
 * Composing, DKIM-signing and sending e-mail on threads beside the sender's. The worker's one thread was
 * the limit of a broadcast (docs/decisions/0031): MIME building, an RSA signature with DKIM, and
 * nodemailer's SMTP exchanges (reading each reply, writing each command) all ran beside claiming,
 * rendering and recording. The sender keeps claiming, rendering and recording; each message's bytes are
 * made and sent here, over SMTP pools of the thread's own. A process's SMTP_CONNECTIONS per pool are
 * shared between its threads, so a pool opens as many connections as it did on one thread.
 * Without started threads (the web process, tests that send in process) messages are sent in line.
 */

interface Thread {
  worker: Worker;
  /** Each message's answer, by job id. */
  jobs: Map<number, (r: SendResult) => void>;
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
  thread.worker.on("message", (m: { id: number; result: SendResult }) => {
    const answer = thread.jobs.get(m.id);
    if (!answer) return;
    thread.jobs.delete(m.id);
    answer(m.result);
  });
  const lost = (err: Error) => {
    // Its messages were in their exchanges: whether the server took them is unknown, so they are sent again.
    const result: SendResult = { ok: false, transient: true, reason: err.message.slice(0, 500) };
    for (const answer of thread.jobs.values()) answer(result);
    thread.jobs.clear();
    const i = threads.indexOf(thread);
    if (i < 0) return;
    // A thread that died is replaced.
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

/** Starts `n` compose threads (MESSAGES_COMPOSE_THREADS); 0 keeps sending on the calling thread. */
export function startComposeThreads(n: number): void {
  stopping = false;
  for (let i = threads.length; i < n; i++) threads.push(spawn());
}

/**
 * Ends the threads. A message still in a thread's SMTP exchange fails as transient and is sent again
 * (with the same Message-ID); the worker stops its senders first, so none is, unless it is killed.
 */
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

/** Composes, signs and sends one e-mail: on the least busy compose thread, or here when none runs. */
export function sendOnComposeThread(send: SmtpSend): Promise<SendResult> {
  if (!threads.length) return sendSmtpHere(send);
  const thread = threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  const connections = Math.max(1, Math.floor(SMTP_CONNECTIONS / threads.length));
  const id = nextId++;
  return new Promise<SendResult>((resolve) => {
    thread.jobs.set(id, resolve);
    thread.worker.postMessage({ id, send: { ...send, pool: { ...send.pool, connections } } });
  });
}
