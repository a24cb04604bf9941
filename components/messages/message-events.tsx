import { formatDateTime } from "@/components/ui/format";
import { DeliveryBadge } from "./labels";
import type { MessageDetail } from "./types";

/** What each report about a sent message said (a DSN, a complaint, a provider's webhook), oldest first. */
export function MessageEvents({ events }: { events: MessageDetail["events"] }) {
  return (
    <section aria-label="Delivery reports" className="space-y-2">
      <h3 className="text-sm font-medium text-zinc-700">Delivery reports</h3>
      {events.length === 0 ? (
        <p className="text-sm text-zinc-500">No report about this message yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-zinc-400">
            <tr>
              <th className="py-1 pr-3 font-normal">Report</th>
              <th className="py-1 pr-3 font-normal">When</th>
              <th className="py-1 pr-3 font-normal">Source</th>
              <th className="py-1 font-normal">Detail</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {events.map((e, i) => (
              <tr key={`${e.at}-${i}`}>
                <td className="py-1.5 pr-3">
                  <DeliveryBadge state={e.kind} type={typeof e.detail.type === "string" ? e.detail.type : null} />
                </td>
                <td className="py-1.5 pr-3 whitespace-nowrap text-zinc-600">{formatDateTime(e.at)}</td>
                <td className="py-1.5 pr-3 text-zinc-600">{e.source}</td>
                <td className="py-1.5 break-all text-xs text-zinc-600">{detailText(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function detailText(d: Record<string, unknown>): string {
  const parts = [d.code, d.reason].filter((x): x is string => typeof x === "string" && x.length > 0);
  return parts.length ? parts.join(" · ") : "—";
}
