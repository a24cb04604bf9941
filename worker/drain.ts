import postgres from "postgres";
import { getDb } from "@/db/client";
import type { Enqueue } from "@/lib/pipeline/enqueue";
import { drainIntake } from "@/lib/pipeline/drain-intake";
import { inRetryingTransaction } from "@/lib/identity/retry";
import { drainOutbox } from "@/lib/queue/outbox";
import { INTAKE_CHANNEL } from "@/lib/queue/jobs";

const POLL_MS = Number(process.env.INTAKE_POLL_MS ?? 250);
const BATCH = Number(process.env.INTAKE_BATCH ?? 2000);
const LOOPS = Number(process.env.INTAKE_LOOPS ?? 3);

/**
 * The intake drain (and the job outbox): `LOOPS` loops each record one batch per transaction while there is work, then sleep
 * until NOTIFY (or a short poll, in case a notification was missed). Not a pg-boss queue: claiming rows of
 * the intake table with SKIP LOCKED is itself the queue, and costs one statement per thousand events.
 */
export async function startDrain(url: string, enqueue: Enqueue) {
  let stopping = false;
  let wake: () => void = () => {};
  const listener = postgres(url, { max: 1, onnotice: () => {} });
  await listener.listen(INTAKE_CHANNEL, () => wake());
  const sleep = () =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, POLL_MS);
      const prev = wake;
      function done() {
        clearTimeout(t);
        wake = prev;
        resolve();
      }
      wake = () => {
        prev();
        done();
      };
    });
  let outboxAt = 0;
  const loop = async () => {
    while (!stopping) {
      try {
        const n = await drainIntake(getDb(), enqueue, BATCH);
        // Jobs requested by route handlers (list rebuilds): checked when idle or every 250 ms, not per batch.
        if (n < BATCH || Date.now() - outboxAt > POLL_MS) {
          outboxAt = Date.now();
          await inRetryingTransaction(getDb(), (tx) => drainOutbox(tx, (queue, payloads) => enqueue(tx, queue, payloads as never)));
        }
        if (n < BATCH) await sleep();
      } catch (err) {
        console.error("[worker] intake drain failed; retrying", (err as Error).message);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  const loops = Array.from({ length: LOOPS }, loop);
  return {
    async stop() {
      stopping = true;
      wake();
      await Promise.all(loops);
      await listener.end({ timeout: 2 });
    },
  };
}
