import { parentPort } from "node:worker_threads";
import { type SmtpSend, sendSmtpHere } from "./smtp-send";

/*
 * A compose thread (compose-threads.ts): composes, signs and sends the e-mails posted to it over its own
 * SMTP pools, answering each with its SendResult by job id (sendSmtpHere never throws: a failure is an answer).
 */
parentPort!.on("message", (job: { id: number; send: SmtpSend }) => {
  void sendSmtpHere(job.send).then((result) => parentPort!.postMessage({ id: job.id, result }));
});
