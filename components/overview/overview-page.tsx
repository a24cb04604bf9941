"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
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
/** The overview's message figures, each with its line's colour and the message log's filter behind it. */
const MESSAGE_LINES = [
  { metric: "sent", name: "Sent", color: "#a1a1aa", filter: "state=sent" },
  { metric: "delivered", name: "Delivered", color: "#0ea5e9", filter: "event=delivered" },
  { metric: "bounced", name: "Bounced", color: "#ef4444", filter: "event=bounced" },
  { metric: "opened", name: "Opened", color: "#4f46e5", filter: "event=opened" },
  { metric: "clicked", name: "Clicked", color: "#10b981", filter: "event=clicked" },
] as const;
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString("en", { hour: "2-digit", minute: "2-digit" });
const hourOf = (iso: string) => {
  const d = new Date(iso);
  return `${d.toLocaleDateString("en", { weekday: "short" })} ${String(d.getHours()).padStart(2, "0")}:00`;
};
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

/**
 * Messages per hour over 48 hours: a line per figure, and each figure's total as a link to the messages
 * that did it (the log lists them all, newest first, not only these hours').
 */
function MessagesCard({ data, base }: { data: Overview["messages_per_hour"]; base: string }) {
  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900">Messages per hour, last 48 h</h2>
        <HeadingLink href={`${base}/messages`}>Messages</HeadingLink>
      </div>
      <ul className="mb-3 flex flex-wrap gap-x-5 gap-y-1 text-sm" aria-label="Messages in the last 48 hours">
        {MESSAGE_LINES.map((l) => {
          const n = data.reduce((a, h) => a + h[l.metric], 0);
          return (
            <li key={l.metric}>
              <Link
                href={`${base}/messages?${l.filter}`}
                aria-label={`${l.name}, 48 h: ${n}`}
                className="inline-flex items-baseline gap-1.5 rounded hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              >
                <span className="inline-block h-2 w-2 rounded-full" style={{ background: l.color }} aria-hidden />
                <span className="text-zinc-500">{l.name}</span>
                <span className="font-semibold tabular-nums text-zinc-900">{n.toLocaleString("en")}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <figure
        aria-label="Messages sent, delivered, bounced, opened and clicked per hour over the last 48 hours"
        className="h-56"
      >
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ left: -20, right: 4, top: 4 }}>
            <CartesianGrid vertical={false} stroke="#f4f4f5" />
            <XAxis dataKey="at" tickFormatter={hourOf} tick={{ fontSize: 11, fill: "#71717a" }} minTickGap={32} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#71717a" }} />
            <Tooltip labelFormatter={(v) => new Date(String(v)).toLocaleString("en")} />
            {MESSAGE_LINES.map((l) => (
              <Line
                key={l.metric}
                type="linear"
                dataKey={l.metric}
                name={l.name}
                stroke={l.color}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </figure>
    </Card>
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
      <Card className="p-5">
        <div className={`mb-3 h-5 w-48 ${block}`} />
        <div className={`mb-3 h-5 w-96 max-w-full ${block}`} />
        <div className={`h-56 ${block}`} />
      </Card>
      <Card className="px-5 pb-5 pt-4">
        <div className={`h-5 w-28 ${block}`} />
        <div className={`mt-2 h-5 w-64 ${block}`} />
      </Card>
    </div>
  );
}

/**
 * The page a project opens on: what is flowing in, whether the pipeline keeps up, what the messages did,
 * and where to look next.
 */
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
      description={`${project.name}: events flowing in, the pipeline's state, what your messages did and your biggest lists. Refreshes every 5 seconds.`}
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
            <MessagesCard data={o.messages_per_hour} base={base} />
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
