"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Card } from "@/components/ui/states";
import { QueryPage } from "@/components/ui/query-state";
import type { Overview } from "@/lib/overview/schemas";
import { memberCountLabel } from "@/components/lists/member-count";

const COLORS = {
  client: "#4f46e5",
  system: "#a1a1aa",
  scheduled: "#f59e0b",
  accepted: "#10b981",
  rejected: "#ef4444",
  users: "#6366f1",
};
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString("en", { hour: "2-digit", minute: "2-digit" });
const dayOf = (iso: string) => new Date(iso).toLocaleDateString("en", { month: "short", day: "numeric" });
const total = (xs: { client: number; system: number; scheduled: number }[]) =>
  xs.reduce((a, x) => a + x.client + x.system + x.scheduled, 0);

function formatLag(s: number | null): string {
  if (s === null) return "none";
  if (s < 1) return "< 1 s";
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** A headline figure that links to the page explaining it. */
function Stat({
  label,
  value,
  href,
  hint,
  tone = "zinc",
}: {
  label: string;
  value: ReactNode;
  href: string;
  hint?: string;
  tone?: "zinc" | "red" | "amber";
}) {
  const color = tone === "red" ? "text-red-600" : tone === "amber" ? "text-amber-600" : "text-zinc-900";
  return (
    <Link
      href={href}
      className="block rounded-xl border border-zinc-200 bg-white p-4 shadow-sm transition-colors hover:border-indigo-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">{label}</p>
      <p className={`mt-1 text-2xl font-semibold tabular-nums ${color}`}>{value}</p>
      {hint && <p className="mt-0.5 text-xs text-zinc-500">{hint}</p>}
    </Link>
  );
}

/** A chart card with a fixed height, so the page does not shift while data loads. */
/** A card's heading link to the page behind it (the small blue "All lists", "Live events"). */
function HeadingLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link className="text-xs text-indigo-600 hover:underline" href={href}>
      {children}
    </Link>
  );
}

function ChartCard({
  title,
  link,
  children,
  label,
}: {
  title: string;
  link?: { href: string; text: string };
  children: ReactNode;
  label: string;
}) {
  return (
    <Card className="p-5">
      <div className="mb-3 flex items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {link && <HeadingLink href={link.href}>{link.text}</HeadingLink>}
      </div>
      <figure aria-label={label} className="h-56">
        {children}
      </figure>
    </Card>
  );
}

/** The overview's bar charts: counts over time on `x`, with the tooltip, legend and bars as children. */
function BarFrame({
  data,
  x,
  tick,
  minTickGap,
  children,
}: {
  data: object[];
  x: string;
  tick: (iso: string) => string;
  minTickGap: number;
  children: ReactNode;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ left: -20, right: 4, top: 4 }}>
        <CartesianGrid vertical={false} stroke="#f4f4f5" />
        <XAxis dataKey={x} tickFormatter={tick} tick={{ fontSize: 11, fill: "#71717a" }} minTickGap={minTickGap} />
        <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#71717a" }} />
        {children}
      </BarChart>
    </ResponsiveContainer>
  );
}

function EventsChart({ data, tick }: { data: Overview["events_per_minute"]; tick: (iso: string) => string }) {
  return (
    <BarFrame data={data} x="at" tick={tick} minTickGap={24}>
      <Tooltip labelFormatter={(v) => new Date(String(v)).toLocaleString("en")} />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      <Bar dataKey="client" name="Client" stackId="e" fill={COLORS.client} isAnimationActive={false} />
      <Bar dataKey="system" name="System" stackId="e" fill={COLORS.system} isAnimationActive={false} />
      <Bar dataKey="scheduled" name="Scheduled" stackId="e" fill={COLORS.scheduled} isAnimationActive={false} />
    </BarFrame>
  );
}

/** The overview's layout with placeholders of the same sizes (stat tiles, chart cards, the lists card). */
function OverviewSkeleton() {
  const block = "animate-pulse rounded bg-zinc-200/70";
  return (
    <div className="space-y-6" aria-hidden>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm">
            <div className={`h-4 w-28 ${block}`} />
            <div className={`mt-1 h-8 w-16 ${block}`} />
            <div className={`mt-0.5 h-4 w-24 ${block}`} />
          </div>
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <Card key={i} className="p-5">
            <div className={`mb-3 h-5 w-48 ${block}`} />
            <div className={`h-56 ${block}`} />
          </Card>
        ))}
      </div>
      <Card className="px-5 pb-5 pt-4">
        <div className={`h-5 w-28 ${block}`} />
        <div className={`mt-2 h-5 w-64 ${block}`} />
      </Card>
    </div>
  );
}

/** The page a project opens on: what is flowing in, whether the pipeline keeps up, and where to look next. */
export function OverviewPage() {
  const project = useProject();
  const base = `/projects/${project.id}`;
  const q = useQuery({
    queryKey: ["overview", project.id],
    queryFn: () => apiFetch<Overview>(adminPath(project.id, "/overview")),
    refetchInterval: 5_000,
  });
  return (
    <QueryPage
      title="Overview"
      description={`${project.name}: events flowing in, the pipeline's state and your biggest lists. Refreshes every 5 seconds.`}
      q={q}
      what="the overview"
      skeleton={<OverviewSkeleton />}
    >
      {(o) => {
        const lastHour = total(o.events_per_minute);
        const lastWeek = total(o.events_per_hour);
        const accepted = o.requests_per_hour.reduce((a, h) => a + h.accepted, 0);
        const rejected = o.requests_per_hour.reduce((a, h) => a + h.rejected, 0);
        const newUsers = o.new_users_per_day.reduce((a, d) => a + d.count, 0);
        const lagTone = o.intake.lag_seconds !== null && o.intake.lag_seconds > 60 ? "amber" : "zinc";
        return (
          <div className="space-y-6">
            <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <Stat
                label="Events, last hour"
                value={lastHour.toLocaleString()}
                href={`${base}/events`}
                hint={`${lastWeek.toLocaleString()} in 7 days`}
              />
              <Stat
                label="Rejected requests, 24 h"
                value={rejected.toLocaleString()}
                tone={rejected ? "red" : "zinc"}
                href={project.role === "admin" ? `${base}/requests?status=failed` : `${base}/keys`}
                hint={`${accepted.toLocaleString()} accepted`}
              />
              <Stat
                label="Intake backlog"
                value={`${o.intake.backlog.toLocaleString()}${o.intake.backlog_capped ? "+" : ""}`}
                tone={lagTone}
                href={`${base}/events`}
                hint={`pipeline lag ${formatLag(o.intake.lag_seconds)}${o.intake.failed ? ` · ${o.intake.failed} failed` : ""}`}
              />
              <Stat
                label="Firings, next 24 h"
                value={o.firings_next_24h.toLocaleString()}
                href={`${base}/schedules`}
                hint="pending schedule firings"
              />
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <ChartCard
                title="Events per minute, last hour"
                label="Events per minute over the last hour, stacked by origin"
                link={{ href: `${base}/events`, text: "Live events" }}
              >
                <EventsChart data={o.events_per_minute} tick={timeOf} />
              </ChartCard>
              <ChartCard
                title="Events per hour, last 7 days"
                label="Events per hour over the last 7 days, stacked by origin"
                link={{ href: `${base}/schema`, text: "Schema" }}
              >
                <EventsChart data={o.events_per_hour} tick={dayOf} />
              </ChartCard>
              <ChartCard
                title="API requests per hour, last 24 h"
                label="Accepted and rejected API requests per hour"
                link={project.role === "admin" ? { href: `${base}/requests`, text: "Request log" } : undefined}
              >
                <BarFrame data={o.requests_per_hour} x="at" tick={timeOf} minTickGap={24}>
                  <Tooltip labelFormatter={(v) => new Date(String(v)).toLocaleString("en")} />
                  <Legend wrapperStyle={{ fontSize: 12 }} />
                  <Bar
                    dataKey="accepted"
                    name="Accepted"
                    stackId="r"
                    fill={COLORS.accepted}
                    isAnimationActive={false}
                  />
                  <Bar
                    dataKey="rejected"
                    name="Rejected"
                    stackId="r"
                    fill={COLORS.rejected}
                    isAnimationActive={false}
                  />
                </BarFrame>
              </ChartCard>
              <ChartCard
                title={`New users per day (${newUsers.toLocaleString()} in 14 days)`}
                label="New users per day over 14 days"
                link={{ href: `${base}/users`, text: "Users" }}
              >
                <BarFrame data={o.new_users_per_day} x="day" tick={dayOf} minTickGap={16}>
                  <Tooltip />
                  <Bar dataKey="count" name="New users" fill={COLORS.users} isAnimationActive={false} />
                </BarFrame>
              </ChartCard>
            </div>
            <Card>
              <div className="flex items-baseline justify-between px-5 pt-4">
                <h2 className="text-sm font-semibold text-zinc-900">Biggest lists</h2>
                <HeadingLink href={`${base}/lists`}>All lists</HeadingLink>
              </div>
              {o.biggest_lists.length === 0 ? (
                <p className="px-5 pb-5 pt-2 text-sm text-zinc-500">
                  No lists yet.{" "}
                  <Link className="text-indigo-600 hover:underline" href={`${base}/lists/new`}>
                    Build one
                  </Link>
                  .
                </p>
              ) : (
                <ul className="divide-y divide-zinc-100 pt-2">
                  {o.biggest_lists.map((l) => (
                    <li key={l.id}>
                      <Link
                        href={`${base}/lists/${l.id}`}
                        className="flex items-center gap-3 px-5 py-2.5 text-sm hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
                      >
                        <span className="flex-1 font-medium text-zinc-900">{l.name}</span>
                        <span className="text-xs text-zinc-500">{l.kind}</span>
                        <span className="w-28 text-right tabular-nums text-zinc-700">{memberCountLabel(l)}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
        );
      }}
    </QueryPage>
  );
}
