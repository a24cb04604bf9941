"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { formatDateTime } from "@/components/ui/format";
import { IdentifierChips, JsonView } from "@/components/ui/json-view";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import { EventList } from "./event-list";
import { IdentifierTable, ScheduleAssignments, Section } from "./profile-parts";
import type { OrganizationDetail as OrgDetail } from "@/components/console/api-types";

export function OrganizationProfile({ organizationId }: { organizationId: string }) {
  const project = useProject();
  const q = useQuery({
    queryKey: ["organization", project.id, organizationId],
    queryFn: () => apiFetch<OrgDetail>(adminPath(project.id, `/organizations/${organizationId}`)),
    refetchInterval: 10_000,
  });
  if (q.isPending) return <LoadingRows rows={6} label="Loading organization" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const o = q.data;
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/projects/${project.id}/organizations`} className="text-sm text-zinc-500 hover:text-zinc-800">
          ← Organizations
        </Link>
        <h1 className="mt-2 text-xl font-semibold tracking-tight text-zinc-900">
          {o.name ?? o.identifier[0]?.external_id ?? "Organization"}
        </h1>
        <p className="mt-1 text-sm text-zinc-500">
          Created {formatDateTime(o.created_at)} · updated {formatDateTime(o.updated_at)}
        </p>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <Section title="Identifiers">
            <IdentifierTable identifier={o.identifier} />
          </Section>
          <Section title="Data">
            <JsonView value={o.data} />
          </Section>
          <Section title={`Members (${o.members.length})`}>
            {o.members.length === 0 ? (
              <p className="text-sm text-zinc-400">No members yet.</p>
            ) : (
              <ul className="divide-y divide-zinc-100">
                {o.members.map((m) => (
                  <li key={m.user_id} className="flex items-center justify-between gap-3 py-2">
                    <Link href={`/projects/${project.id}/users/${m.user_id}`} className="hover:underline">
                      <IdentifierChips identifier={m.identifier} />
                    </Link>
                    <span className="truncate font-mono text-xs text-zinc-500">
                      {Object.keys(m.data).length ? JSON.stringify(m.data) : ""}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section title="Schedules">
            <ScheduleAssignments items={o.schedules} queryKey={["organization", project.id, organizationId]} />
          </Section>
        </div>
        <Section
          title="Event timeline"
          aside={
            <Link
              href={`/projects/${project.id}/events?organization_id=${o.id}`}
              className="text-xs font-medium text-indigo-600 hover:underline"
            >
              All events
            </Link>
          }
        >
          {o.recent_events.length === 0 ? (
            <p className="text-sm text-zinc-400">No events yet.</p>
          ) : (
            <div className="-m-5">
              <EventList events={o.recent_events} projectId={project.id} />
            </div>
          )}
        </Section>
      </div>
    </div>
  );
}
