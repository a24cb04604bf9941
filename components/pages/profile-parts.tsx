import type { ReactNode } from "react";
import { formatDateTime } from "@/components/ui/format";
import type { Identifier } from "@/components/ui/json-view";
import { Badge, Card, tableClass, tdClass, thClass } from "@/components/ui/states";

export function Section({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <Card>
      <div className="flex items-center justify-between border-b border-zinc-100 px-5 py-3">
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {aside}
      </div>
      <div className="p-5">{children}</div>
    </Card>
  );
}

export function IdentifierTable({ identifier }: { identifier: Identifier[] }) {
  return (
    <table className={tableClass}>
      <thead><tr><th className={`${thClass} pl-0`}>Source</th><th className={thClass}>External id</th><th className={thClass}>Metadata</th></tr></thead>
      <tbody className="divide-y divide-zinc-100">
        {identifier.map((i) => (
          <tr key={`${i.source}:${i.external_id}`}>
            <td className={`${tdClass} pl-0`}><Badge>{i.source}</Badge></td>
            <td className={`${tdClass} font-mono text-xs`}>{i.external_id}</td>
            <td className={`${tdClass} font-mono text-xs text-zinc-500`}>{i.metadata ? JSON.stringify(i.metadata) : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Schedule assignments as the schedules issue returns them; tolerant of the exact field names. */
export function ScheduleAssignments({ items }: { items: unknown[] }) {
  if (!items.length) return <p className="text-sm text-zinc-400">No schedule assignments.</p>;
  return (
    <ul className="divide-y divide-zinc-100">
      {items.map((raw, i) => {
        const a = raw as Record<string, any>;
        const state = a.state ?? a.status;
        const next = a.next_fire_at ?? a.next_firing_at ?? a.next_fire?.fire_at ?? null;
        return (
          <li key={a.id ?? i} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="font-mono text-sm text-zinc-900">{a.name ?? a.schedule_name ?? "schedule"}</span>
            <span className="flex items-center gap-2 text-xs text-zinc-500">
              {a.interval && <span>every {a.interval}</span>}
              {state && <Badge tone={state === "active" ? "green" : "amber"}>{state}</Badge>}
              <span>next: {next ? formatDateTime(next) : "—"}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** Subscription states per group (the subscriptions issue's shape: group, channel, state, effective_state). */
export function Subscriptions({ items }: { items: unknown[] }) {
  if (!items.length) return <p className="text-sm text-zinc-400">No subscription groups in this project.</p>;
  const tone = (st: unknown) => (st === "subscribed" ? "green" : st === "unsubscribed" ? "red" : "zinc");
  return (
    <ul className="divide-y divide-zinc-100">
      {items.map((raw, i) => {
        const s = raw as Record<string, any>;
        const state = s.state ?? null;
        return (
          <li key={s.group_id ?? s.group ?? i} className="flex items-center justify-between gap-3 py-2 text-sm">
            <span className="min-w-0">
              <span className="text-zinc-900">{s.group ?? s.name}</span>
              {s.channel && <span className="ml-2 text-xs text-zinc-400">{s.channel}</span>}
            </span>
            <span className="flex items-center gap-2">
              {state === null && s.effective_state && <span className="text-xs text-zinc-400">sends as {s.effective_state}</span>}
              <Badge tone={tone(state)}>{state ?? "unset"}</Badge>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
