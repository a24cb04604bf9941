"use client";
import { formatDateTime } from "@/components/ui/format";
import { IdentifierChips } from "@/components/ui/json-view";
import { ListsJourneysPanel } from "@/components/explain/lists-journeys-panel";
import { UserTimeline } from "@/components/explain/user-timeline";
import { UserSubscriptionsPanel } from "@/components/subscriptions/user-subscriptions-panel";
import { AllEventsLink, ProfileFacts, ProfileHeader, Section, useProfile } from "./profile-parts";
import type { UserDetail } from "@/components/console/api-types";

export function UserProfile({ userId }: { userId: string }) {
  const { project, queryKey, placeholder, data: u } = useProfile<UserDetail>("user", userId);
  if (!u) return placeholder;
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
      <ProfileHeader
        backHref={`/projects/${project.id}/users`}
        backLabel="Users"
        title={u.email ?? u.identifier[0]?.external_id ?? "User"}
      >
        <div className="mt-2">
          <IdentifierChips identifier={u.identifier} />
        </div>
      </ProfileHeader>
      <dl className="grid grid-cols-2 gap-4 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm sm:grid-cols-3">
        {fields.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs uppercase tracking-wide text-zinc-400">{k}</dt>
            <dd className="mt-1 truncate text-sm text-zinc-900">{v ?? "—"}</dd>
          </div>
        ))}
      </dl>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <ProfileFacts
          identifier={u.identifier}
          data={u.data}
          memberships={{
            title: "Organizations",
            empty: "Not a member of any organization.",
            items: u.memberships.map((m) => ({
              key: m.organization_id,
              href: `/projects/${project.id}/organizations/${m.organization_id}`,
              identifier: m.identifier,
              data: m.data,
            })),
          }}
          schedules={u.schedules}
          queryKey={queryKey}
        >
          <Section title="Subscriptions">
            <UserSubscriptionsPanel projectId={project.id} userId={u.id} />
          </Section>
        </ProfileFacts>
        <div className="space-y-6">
          <Section title="Lists and journeys" description="Where this user is, and why (or why not).">
            <ListsJourneysPanel projectId={project.id} user={u} />
          </Section>
          <Section title="Timeline" aside={<AllEventsLink projectId={project.id} filter={`user_id=${u.id}`} />}>
            <UserTimeline projectId={project.id} userId={u.id} />
          </Section>
        </div>
      </div>
    </div>
  );
}
