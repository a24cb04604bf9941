import { parentPort } from "node:worker_threads";
import { type SmtpSend, sendSmtpHere } from "./smtp-send";

/*
 * A compose thread (compose-threads.ts): composes, signs and sends the e-mails posted to it over its own
 * SMTP pools, answering each with its SendResult by job id. A failure is an answer; the thread goes on.
 */
parentPort!.on("message", (job: { id: number; send: SmtpSend }) => {
  sendSmtpHere(job.send).then(
    (result) => parentPort!.postMessage({ id: job.id, result }),
    (err: unknown) =>
      parentPort!.postMessage({
        id: job.id,
        result: { ok: false, transient: true, reason: err instanceof Error ? err.message : String(err) },
      }),
  );
});
