"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { roleAtLeast } from "@/lib/access/roles";
import { PauseResumeDialog, usePauseResume, type Assignment } from "@/components/schedules/schedule-assignments";
import { IdentifierChips, JsonView, type Identifier } from "@/components/ui/json-view";
import { Badge, ErrorBanner, LoadingRows, Section, tableClass, tdClass, thClass } from "@/components/ui/states";

export { Section };

/**
 * One user's or organization's detail, refreshed every 10 s. `queryKey` is the one to hand to
 * ScheduleAssignments so a pause or resume there refreshes this profile. `data` is there only once it
 * loaded and while it is not in error; until then the page shows `placeholder` (loading rows or the error).
 */
export function useProfile<T>(kind: "user" | "organization", id: string) {
  const project = useProject();
  const queryKey = [kind, project.id, id];
  const q = useQuery({
    queryKey,
    queryFn: () => apiFetch<T>(adminPath(project.id, `/${kind}s/${id}`)),
    refetchInterval: 10_000,
  });
  const placeholder = q.isPending ? (
    <LoadingRows rows={6} label={`Loading ${kind}`} />
  ) : q.isError ? (
    <ErrorBanner message={q.error.message} />
  ) : null;
  return { project, queryKey, placeholder, data: placeholder ? undefined : q.data };
}

/** The link beside a profile's timeline to the Events page, filtered to this record (`filter`: `user_id=…`). */
export function AllEventsLink({ projectId, filter }: { projectId: string; filter: string }) {
  return (
    <Link
      href={`/projects/${projectId}/events?${filter}`}
      className="text-xs font-medium text-indigo-600 hover:underline"
    >
      All events
    </Link>
  );
}

/** A profile's head: the way back to its list, the record's name, and what stands under the name. */
export function ProfileHeader({
  backHref,
  backLabel,
  title,
  children,
}: {
  backHref: string;
  backLabel: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div>
      <Link href={backHref} className="text-sm text-zinc-500 hover:text-zinc-800">
        ← {backLabel}
      </Link>
      <h1 className="mt-2 text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      {children}
    </div>
  );
}

type Membership = { key: string; href: string; identifier: Identifier[]; data: Record<string, unknown> };

/**
 * A profile's first column: its identifiers and data, its memberships (the other side of each linked), what
 * the page adds (`children`), then its schedule assignments (`queryKey`: the profile's, see `useProfile`).
 */
export function ProfileFacts({
  identifier,
  data,
  memberships,
  schedules,
  queryKey,
  children,
}: {
  identifier: Identifier[];
  data: unknown;
  memberships: { title: string; empty: string; items: Membership[] };
  schedules: unknown[];
  queryKey: readonly unknown[];
  children?: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <Section title="Identifiers">
        <IdentifierTable identifier={identifier} />
      </Section>
      <Section title="Data">
        <JsonView value={data} />
      </Section>
      <Section title={memberships.title}>
        <MembershipList empty={memberships.empty} items={memberships.items} />
      </Section>
      {children}
      <Section title="Schedules">
        <ScheduleAssignments items={schedules} queryKey={queryKey} />
      </Section>
    </div>
  );
}

/** Memberships between users and organizations: each the other side's identifiers (linked) and the membership's data. */
function MembershipList({ empty, items }: { empty: string; items: Membership[] }) {
  if (items.length === 0) return <p className="text-sm text-zinc-400">{empty}</p>;
  return (
    <ul className="divide-y divide-zinc-100">
      {items.map((m) => (
        <li key={m.key} className="flex items-center justify-between gap-3 py-2">
          <Link href={m.href} className="hover:underline">
            <IdentifierChips identifier={m.identifier} />
          </Link>
          <span className="truncate font-mono text-xs text-zinc-500">
            {Object.keys(m.data).length ? JSON.stringify(m.data) : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function IdentifierTable({ identifier }: { identifier: Identifier[] }) {
  return (
    <table className={tableClass}>
      <thead>
        <tr>
          <th className={`${thClass} pl-0`}>Source</th>
          <th className={thClass}>External id</th>
          <th className={thClass}>Metadata</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {identifier.map((i) => (
          <tr key={`${i.source}:${i.external_id}`}>
            <td className={`${tdClass} pl-0`}>
              <Badge>{i.source}</Badge>
            </td>
            <td className={`${tdClass} font-mono text-xs`}>{i.external_id}</td>
            <td className={`${tdClass} font-mono text-xs text-zinc-500`}>
              {i.metadata ? JSON.stringify(i.metadata) : "—"}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A user's or organization's schedule assignments with state and next firing; editors pause and resume. */
export function ScheduleAssignments({ items, queryKey }: { items: unknown[]; queryKey: readonly unknown[] }) {
  const project = useProject();
  const [acting, setActing] = useState<Assignment | null>(null);
  const pauseResume = usePauseResume(queryKey);
  if (!items.length) return <p className="text-sm text-zinc-400">No schedule assignments.</p>;
  const canEdit = roleAtLeast(project.role, "editor");
  return (
    <>
      {pauseResume.error && <ErrorBanner message={pauseResume.error} />}
      <ul className="divide-y divide-zinc-100">
        {items.map((raw, i) => {
          const a = raw as Assignment & { schedule_id: string; name?: string };
          return (
            <li key={a.id ?? i} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="font-mono text-sm text-zinc-900">{a.name ?? "schedule"}</span>
              <span className="flex items-center gap-2 text-xs text-zinc-500">
                {a.interval && <span>every {a.interval}</span>}
                {a.state && (
                  <Badge tone={a.state === "active" ? "green" : a.state === "paused" ? "amber" : "zinc"}>
                    {a.state}
                  </Badge>
                )}
                <span title={formatDateTime(a.next_fire_at)}>
                  next: {a.next_fire_at ? formatRelative(a.next_fire_at) : "—"}
                </span>
                {canEdit && a.interval && a.state !== "fired" && (
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => setActing(a)}
                    aria-label={`${a.state === "paused" ? "Resume" : "Pause"} ${a.name}`}
                  >
                    {a.state === "paused" ? "Resume…" : "Pause…"}
                  </Button>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      <PauseResumeDialog assignment={acting} onClose={() => setActing(null)} onChoose={pauseResume.choose} />
    </>
  );
}
