import type { Broadcast } from "@/components/messages/types";

/**
 * A broadcast's progress: sent, skipped and failed as segments of one bar over its recipients, with the
 * figures beside it. Before sending starts the recipients are not known yet (the list is read then).
 */
export function BroadcastProgress({ b }: { b: Broadcast }) {
  const { sent, skipped, failed, queued } = b.counts;
  const recipients = b.counts.recipients ?? 0;
  const done = sent + skipped + failed;
  const pct = (n: number) => (recipients > 0 ? (n / recipients) * 100 : 0);
  const label = recipients > 0 ? `${done} of ${recipients} finished` : "Not started";
  return (
    <div className="min-w-[14rem]">
      <div
        role="progressbar"
        aria-label={`Progress of ${b.name}`}
        aria-valuemin={0}
        aria-valuemax={recipients}
        aria-valuenow={done}
        aria-valuetext={label}
        className="flex h-2 overflow-hidden rounded-full bg-zinc-100"
      >
        <div className="bg-emerald-500 transition-all" style={{ width: `${pct(sent)}%` }} />
        <div className="bg-amber-400 transition-all" style={{ width: `${pct(skipped)}%` }} />
        <div className="bg-red-500 transition-all" style={{ width: `${pct(failed)}%` }} />
      </div>
      <p className="mt-1 text-xs tabular-nums text-zinc-500">
        {label}
        {recipients > 0 && (
          <>
            {" · "}
            <span className="text-emerald-700">{sent} sent</span>
            {skipped > 0 && <span className="text-amber-700"> · {skipped} skipped</span>}
            {failed > 0 && <span className="text-red-700"> · {failed} failed</span>}
            {queued > 0 && <span> · {queued} queued</span>}
          </>
        )}
      </p>
    </div>
  );
}
