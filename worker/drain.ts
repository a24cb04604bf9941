import { getDb } from "@/db/client";
import { errorCode, isDatabaseUnavailable } from "@/lib/db/errors";
import { drainIntake, type IntakeKey, nextIntakeRow, quarantineIntakeRow } from "@/lib/pipeline/drain-intake";
import { listenForIntake } from "@/lib/pipeline/intake-wakeups";
import { intakeVacuum } from "@/lib/pipeline/vacuum-intake";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";

const POLL_MS = Number(process.env.INTAKE_POLL_MS ?? 250);
const BATCH = Number(process.env.INTAKE_BATCH ?? 2000);
const LOOPS = Number(process.env.INTAKE_LOOPS ?? 3);
/**
 * How often a row must fail alone, a growing pause apart (0.25, 0.5, 1 and 2 s), before it is set aside:
 * a failure that passes (a switchover's moment, a race lost eight times running) does not condemn a row
 * that would have been recorded a second later, and a row that fails on its own still goes within ~4 s.
 */
const STRIKES = 5;

/**
 * The intake drain: `LOOPS` loops each record one batch per transaction while there is work, then sleep
 * until NOTIFY (or a short poll, in case a notification was missed). Not a pg-boss queue: claiming rows of
 * the intake table with SKIP LOCKED is itself the queue, and costs one statement per thousand events.
 */
export async function startDrain() {
  let stopping = false;
  let wake: () => void = () => {};
  const stopListening = await listenForIntake(() => wake());
  const vacuum = intakeVacuum({ db: getDb() });
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
  const loop = async () => {
    // A failing batch is retried with half the rows, down to one named row; a row that keeps failing on
    // its own (not for want of a database) is set aside so the rest of the intake keeps flowing.
    let limit = BATCH;
    let suspect = null as { key: IntakeKey; strikes: number } | null;
    while (!stopping) {
      const single: IntakeKey | null =
        limit === 1 ? (suspect?.key ?? (await nextIntakeRow({ db: getDb() }).catch(() => null))) : null;
      try {
        const end = metrics.stepDuration.startTimer({ step: "intake" });
        const n = await drainIntake({ db: getDb() }, { limit, only: single ?? undefined });
        if (n) end();
        limit = BATCH;
        suspect = null;
        await vacuum
          .drained(n)
          .catch((err) => log.warn({ err: (err as Error).message }, "vacuum of the intake failed"));
        if (n < BATCH && !single) await sleep();
      } catch (err) {
        const message = (err as Error).message;
        const down = isDatabaseUnavailable(err);
        metrics.stepFailures.inc({ step: "intake" });
        log.error({ err: message, code: errorCode(err), limit }, "intake drain failed; retrying");
        let pause = down ? 1000 : 50;
        if (single && !down) {
          const strikes: number = suspect && sameRow(suspect.key, single) ? suspect.strikes + 1 : 1;
          suspect = strikes < STRIKES ? { key: single, strikes } : null;
          if (suspect) pause = 250 * 2 ** (strikes - 1);
          else {
            log.error({ err: message, intakeId: single.id }, "setting aside an intake row that fails on its own");
            await quarantineIntakeRow({ db: getDb() }, { key: single, error: message }).catch(() => {});
          }
        }
        if (!down) limit = Math.max(1, Math.floor(limit / 2));
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  };
  const loops = Array.from({ length: LOOPS }, loop);
  return {
    async stop() {
      stopping = true;
      wake();
      await Promise.all(loops);
      await stopListening();
    },
  };
}

const sameRow = (a: IntakeKey, b: IntakeKey) => a.projectId === b.projectId && a.id === b.id;
