"use client";
import { formatDateTime } from "@/components/ui/format";
import { EventList } from "@/components/events/event-list";
import { AllEventsLink, ProfileFacts, ProfileHeader, Section, useProfile } from "./profile-parts";
import type { OrganizationDetail as OrgDetail } from "@/components/console/api-types";

export function OrganizationProfile({ organizationId }: { organizationId: string }) {
  const { project, queryKey, placeholder, data: o } = useProfile<OrgDetail>("organization", organizationId);
  if (!o) return placeholder;
  return (
    <div className="space-y-6">
      <ProfileHeader
        backHref={`/projects/${project.id}/organizations`}
        backLabel="Organizations"
        title={o.name ?? o.identifier[0]?.external_id ?? "Organization"}
      >
        <p className="mt-1 text-sm text-zinc-500">
          Created {formatDateTime(o.created_at)} · updated {formatDateTime(o.updated_at)}
        </p>
      </ProfileHeader>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <ProfileFacts
          identifier={o.identifier}
          data={o.data}
          memberships={{
            title: `Members (${o.members.length})`,
            empty: "No members yet.",
            items: o.members.map((m) => ({
              key: m.user_id,
              href: `/projects/${project.id}/users/${m.user_id}`,
              identifier: m.identifier,
              data: m.data,
            })),
          }}
          schedules={o.schedules}
          queryKey={queryKey}
        />
        <Section
          title="Event timeline"
          aside={<AllEventsLink projectId={project.id} filter={`organization_id=${o.id}`} />}
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
