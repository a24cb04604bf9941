import type { RollupMetric } from "@/db/schema";
import { isSystemEventName } from "@/lib/events/system-events";
import type { RollupDelta } from "@/lib/queue/jobs";

/** Which overview series an event counts in: scheduled firings, other service events, or the client's own. */
export function eventMetric(name: string): RollupMetric {
  if (name.startsWith("scheduled.")) return "events.scheduled";
  return isSystemEventName(name) ? "events.system" : "events.client";
}

/** Floors a receipt time (ISO or PostgreSQL text) to its minute, as ISO. */
function minuteOf(receivedAt: string): string {
  const ms = Date.parse(receivedAt.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
  return new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
}

/**
 * Per-minute counts of a recorded batch, by receipt time: the event series, and `users.created` for the
 * new-users chart. Small whatever the batch (a few rows per minute it spans), so it rides in the step-2 job.
 */
export function rollupOf(events: { name: string; receivedAt: string; times?: number }[]): RollupDelta {
  // Counted by receipt time and metric first (a batch's events mostly share one receipt time and a few
  // names), then by minute: two map lookups per event, no key built per event.
  const byReceipt = new Map<string, Map<RollupMetric, number>>();
  const metrics = new Map<string, RollupMetric>();
  for (const e of events) {
    let counts = byReceipt.get(e.receivedAt);
    if (!counts) byReceipt.set(e.receivedAt, (counts = new Map()));
    let k = metrics.get(e.name);
    if (!k) metrics.set(e.name, (k = eventMetric(e.name)));
    const n = e.times ?? 1;
    counts.set(k, (counts.get(k) ?? 0) + n);
    if (e.name === "user.created") counts.set("users.created", (counts.get("users.created") ?? 0) + n);
  }
  const acc = new Map<string, { m: string; k: RollupMetric; c: number }>();
  for (const [receivedAt, counts] of byReceipt) {
    const m = minuteOf(receivedAt);
    for (const [k, c] of counts) {
      const key = `${k}|${m}`;
      const a = acc.get(key);
      if (a) a.c += c;
      else acc.set(key, { m, k, c });
    }
  }
  // Sorted, so concurrent merges lock rollup rows in one order.
  return [...acc.values()].sort((a, b) => (a.k === b.k ? (a.m < b.m ? -1 : 1) : a.k < b.k ? -1 : 1));
}
