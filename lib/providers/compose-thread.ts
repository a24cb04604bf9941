import { parentPort } from "node:worker_threads";
import { composeMail, type OutgoingEmail } from "./compose-mail";
import type { DkimKey } from "./dkim";

/*
 * A compose thread (compose-threads.ts): builds and signs the messages posted to it, answering each by its
 * job id. A failure answers the job's error text; the thread goes on.
 */
parentPort!.on("message", (job: { id: number; mail: OutgoingEmail; dkim: DkimKey | null }) => {
  composeMail(job.mail, job.dkim).then(
    (composed) => parentPort!.postMessage({ id: job.id, composed }),
    (err: unknown) => parentPort!.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
