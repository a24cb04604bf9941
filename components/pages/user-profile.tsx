"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { formatDateTime } from "@/components/ui/format";
import { IdentifierChips, JsonView } from "@/components/ui/json-view";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import { ListsJourneysPanel } from "@/components/explain/lists-journeys-panel";
import { UserTimeline } from "@/components/explain/user-timeline";
import { UserSubscriptionsPanel } from "@/components/subscriptions/user-subscriptions-panel";
import { IdentifierTable, ScheduleAssignments, Section } from "./profile-parts";
import type { UserDetail } from "@/components/console/api-types";

export function UserProfile({ userId }: { userId: string }) {
  const project = useProject();
  const q = useQuery({
    queryKey: ["user", project.id, userId],
    queryFn: () => apiFetch<UserDetail>(adminPath(project.id, `/users/${userId}`)),
    refetchInterval: 10_000,
  });
  if (q.isPending) return <LoadingRows rows={6} label="Loading user" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const u = q.data;
  const fields: [string, string | null][] = [
    ["E-mail", u.email],
    ["Phone", u.phone],
    ["Timezone", u.timezone],
    ["Locale", u.locale],
    ["Created", formatDateTime(u.created_at)],
    ["Updated", formatDateTime(u.updated_at)],
  ];
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/projects/${project.id}/users`} className="text-sm text-zinc-500 hover:text-zinc-800">
          ← Users
        </Link>
        <h1 className="mt-2 text-xl font-semibold tracking-tight text-zinc-900">
          {u.email ?? u.identifier[0]?.external_id ?? "User"}
        </h1>
        <div className="mt-2">
          <IdentifierChips identifier={u.identifier} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-4 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm sm:grid-cols-3">
        {fields.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs uppercase tracking-wide text-zinc-400">{k}</dt>
            <dd className="mt-1 truncate text-sm text-zinc-900">{v ?? "—"}</dd>
          </div>
        ))}
      </dl>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <Section title="Identifiers">
            <IdentifierTable identifier={u.identifier} />
          </Section>
          <Section title="Data">
            <JsonView value={u.data} />
          </Section>
          <Section title="Organizations">
            {u.memberships.length === 0 ? (
              <p className="text-sm text-zinc-400">Not a member of any organization.</p>
            ) : (
              <ul className="divide-y divide-zinc-100">
                {u.memberships.map((m) => (
                  <li key={m.organization_id} className="flex items-center justify-between gap-3 py-2">
                    <Link
                      href={`/projects/${project.id}/organizations/${m.organization_id}`}
                      className="hover:underline"
                    >
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
          <Section title="Subscriptions">
            <UserSubscriptionsPanel projectId={project.id} userId={u.id} />
          </Section>
          <Section title="Schedules">
            <ScheduleAssignments items={u.schedules} queryKey={["user", project.id, userId]} />
          </Section>
        </div>
        <div className="space-y-6">
          <Section title="Lists and journeys" description="Where this user is, and why (or why not).">
            <ListsJourneysPanel projectId={project.id} user={u} />
          </Section>
          <Section
            title="Timeline"
            aside={
              <Link
                href={`/projects/${project.id}/events?user_id=${u.id}`}
                className="text-xs font-medium text-indigo-600 hover:underline"
              >
                All events
              </Link>
            }
          >
            <UserTimeline projectId={project.id} userId={u.id} />
          </Section>
        </div>
      </div>
    </div>
  );
}
