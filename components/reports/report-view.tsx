"use client";
import Link from "next/link";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card, Section } from "@/components/ui/states";
import type { Report } from "@/lib/reports/schemas";

/** The funnel's rows, in the order a send proceeds, with the message-log filter behind each number. */
const ROWS: { metric: Exclude<keyof Report["funnel"], "conversion_value" | "rate_base">; label: string }[] = [
  { metric: "sent", label: "Sent" },
  { metric: "delivered", label: "Delivered" },
  { metric: "bounced", label: "Bounced" },
  { metric: "complained", label: "Complained" },
  { metric: "opened", label: "Opened" },
  { metric: "opened_machine", label: "Opened by machines" },
  { metric: "clicked", label: "Clicked" },
  { metric: "unsubscribed", label: "Unsubscribed" },
  { metric: "converted", label: "Converted" },
];
const LINES = [
  { metric: "sent", color: "#a1a1aa" },
  { metric: "opened", color: "#4f46e5" },
  { metric: "clicked", color: "#10b981" },
  { metric: "converted", color: "#f59e0b" },
] as const;

export const percent = (r: number) => `${(r * 100).toFixed(r > 0 && r < 0.1 ? 1 : 0)} %`;
const label = (p: Report["series"][number]) =>
  p.unit === "hour"
    ? new Date(p.at).toLocaleString("en", { month: "short", day: "numeric", hour: "2-digit" })
    : new Date(p.at).toLocaleDateString("en", { month: "short", day: "numeric" });

/**
 * A report: the funnel as counts and rates (each count links to the messages behind it) and a chart
 * over time. `messagesHref` builds the message log's address for one metric; `empty` is what the chart
 * says when nothing was counted.
 */
export function ReportView({
  report,
  messagesHref,
  empty = "Nothing sent yet.",
}: {
  report: Report;
  messagesHref: (event: string) => string;
  empty?: string;
}) {
  const f = report.funnel;
  const base = f.rate_base === "delivered" ? "of delivered" : "of sent";
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {ROWS.map(({ metric, label: name }) => (
          <Link
            key={metric}
            href={messagesHref(metric)}
            aria-label={`${name}: ${f[metric].count} messages`}
            className="block rounded-xl border border-zinc-200 bg-white p-4 shadow-sm transition-colors hover:border-indigo-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">{name}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums text-zinc-900">
              {f[metric].count.toLocaleString("en")}
            </p>
            <p className="mt-0.5 text-xs text-zinc-500">
              {metric === "sent"
                ? "messages"
                : `${percent(f[metric].rate)} ${["delivered", "bounced", "complained"].includes(metric) ? "of sent" : base}`}
            </p>
          </Link>
        ))}
        <Card className="p-4">
          <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">Conversion value</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-zinc-900">
            {f.conversion_value.toLocaleString("en", { maximumFractionDigits: 2 })}
          </p>
          <p className="mt-0.5 text-xs text-zinc-500">summed from the goal events</p>
        </Card>
      </div>
      <Section title="Over time" description="Hourly for the first 48 hours, then daily.">
        {report.series.length === 0 ? (
          <p className="text-sm text-zinc-500">{empty}</p>
        ) : (
          <div className="h-64">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={report.series.map((p) => ({ ...p, label: label(p) }))}>
                <CartesianGrid stroke="#f4f4f5" vertical={false} />
                <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={24} />
                <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
                <Tooltip />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                {LINES.map((l) => (
                  <Bar key={l.metric} dataKey={l.metric} fill={l.color} maxBarSize={24} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </Section>
    </div>
  );
}
