"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { patchRows, useOptimisticMutation } from "@/components/console/optimistic";
import { useProject } from "@/components/console/project-context";
import { RowAction } from "@/components/ui/button";
import { ConfirmDelete } from "@/components/console/confirm-delete";
import { formatDateTime } from "@/components/ui/format";
import { Badge, EmptyState, ErrorBanner, LoadingRows, PageHeader, tdClass, TableCard } from "@/components/ui/states";
import { ROLES, type Role } from "@/lib/access/roles";
import { InvitesPanel } from "./invites-panel";
import type { Member, Roster } from "@/components/console/api-types";

export function MembersPage() {
  const project = useProject();
  const isAdmin = project.role === "admin";
  const [tab, setTab] = useState<"members" | "invites">("members");
  return (
    <>
      <PageHeader
        title="Members"
        description="Who can open this project, and with which role. Organization owners and admins administer every project of the organization."
      />
      {isAdmin && (
        <div role="tablist" aria-label="Members and invitations" className="mb-5 flex gap-1 border-b border-zinc-200">
          {(["members", "invites"] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`tab-${t}`}
              aria-selected={tab === t}
              aria-controls={`panel-${t}`}
              onClick={() => setTab(t)}
              onKeyDown={(e) =>
                (e.key === "ArrowRight" || e.key === "ArrowLeft") && setTab(t === "members" ? "invites" : "members")
              }
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${tab === t ? "border-indigo-600 text-indigo-700" : "border-transparent text-zinc-500 hover:text-zinc-800"}`}
            >
              {t === "members" ? "Roster" : "Invitations"}
            </button>
          ))}
        </div>
      )}
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={isAdmin ? `tab-${tab}` : undefined}>
        {tab === "members" ? <RosterPanel /> : <InvitesPanel />}
      </div>
    </>
  );
}

function RosterPanel() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["members", project.id];
  const q = useQuery({ queryKey: key, queryFn: () => apiFetch<Roster>(adminPath(project.id, "/members?limit=500")) });
  const [removing, setRemoving] = useState<Member | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const isAdmin = project.role === "admin";

  // Optimistic: the select shows the new role at once; a refusal (the last-admin rule) puts the old one back.
  const changeRole = useOptimisticMutation({
    queryKey: key,
    mutationFn: ({ m, role }: { m: Member; role: Role }) =>
      apiFetch<{ revoked_key_ids: string[] }>(adminPath(project.id, `/members/${m.admin_id}`), {
        method: "PATCH",
        body: { role },
      }),
    apply: (old, { m, role }) =>
      patchRows<Member>(
        old,
        (r) => r.admin_id === m.admin_id,
        (r) => ({ ...r, role }),
      ),
  });
  const onRole = (m: Member, role: Role) => {
    setError(null);
    setNotice(null);
    changeRole.mutate(
      { m, role },
      {
        onSuccess: (res) => {
          const n = res.revoked_key_ids.length;
          if (n > 0)
            setNotice(
              `${m.email} is now ${role}: ${n} API key${n === 1 ? "" : "s"} they created with a higher role ${n === 1 ? "was" : "were"} revoked.`,
            );
        },
        onError: (e) => setError(`${m.email} is still ${m.role}: ${e.message}`),
      },
    );
  };

  if (q.isPending) return <LoadingRows label="Loading members" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  return (
    <div className="space-y-6">
      {error && <ErrorBanner message={error} />}
      {notice && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      )}
      {q.data.data.length === 0 ? (
        <EmptyState title="Nobody on the roster yet">
          Invite teammates from the Invitations tab. Organization owners and admins already have access.
        </EmptyState>
      ) : (
        <TableCard columns={["Member", "Role", "Joined"]} actions>
          {q.data.data.map((m) => (
            <tr key={m.admin_id}>
              <td className={tdClass}>
                <span className="font-medium text-zinc-900">{m.email}</span>
              </td>
              <td className={tdClass}>
                {isAdmin ? (
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    onChange={(e) => onRole(m, e.target.value as Role)}
                    className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus:outline-none focus:ring-2 focus:ring-indigo-500/40"
                  >
                    {[...ROLES].reverse().map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  <Badge tone={m.role === "admin" ? "indigo" : "zinc"}>{m.role}</Badge>
                )}
              </td>
              <td className={`${tdClass} text-zinc-500`}>{formatDateTime(m.joined_at)}</td>
              <td className={`${tdClass} text-right`}>
                {isAdmin && (
                  <RowAction onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>
                    Remove
                  </RowAction>
                )}
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      {q.data.inherited.length > 0 && (
        <div>
          <h2 className="text-sm font-medium text-zinc-900">Administrators through the organization</h2>
          <p className="mt-0.5 text-sm text-zinc-500">
            Owners and admins of {project.orgName} administer this project and are not on the roster.
          </p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {q.data.inherited.map((i) => (
              <li
                key={i.admin_id}
                className="rounded-full border border-zinc-200 bg-white px-3 py-1 text-sm text-zinc-700"
              >
                {i.email} <span className="text-zinc-400">· org {i.org_role}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ConfirmDelete
        target={[removing, setRemoving]}
        title="Remove member?"
        body={
          <>
            Remove <strong>{removing?.email}</strong> from {project.name}? They lose access at once, and every API key
            they created in this project is revoked.
          </>
        }
        confirmLabel="Remove member"
        path={(t) => `/members/${t.admin_id}`}
        after={() => qc.invalidateQueries({ queryKey: key })}
      />
    </div>
  );
}
