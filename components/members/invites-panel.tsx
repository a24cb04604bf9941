"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button, RowAction } from "@/components/ui/button";
import { ConfirmDelete } from "@/components/console/confirm-delete";
import { formatRelative } from "@/components/ui/format";
import { RoleHelp, RoleSelect } from "@/components/ui/role-select";
import { Badge, Card, EmptyState, ErrorBanner, inputClass, tdClass, TableCard } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import type { Role } from "@/lib/access/roles";
import type { Invite } from "@/components/console/api-types";

const DELIVERY_TONE = { queued: "amber", sent: "green", failed: "red" } as const;

/** The mail's state, with the last error under it while it is retrying or has given up. */
function DeliveryCell({ invite }: { invite: Invite }) {
  const retrying = invite.delivery === "queued" && invite.delivery_error;
  return (
    <div>
      <Badge tone={DELIVERY_TONE[invite.delivery]}>{retrying ? "queued · retrying" : invite.delivery}</Badge>
      {invite.delivery === "sent" && invite.delivered_at && (
        <p className="mt-1 text-xs text-zinc-500">{formatRelative(invite.delivered_at)}</p>
      )}
      {invite.delivery_error && invite.delivery !== "sent" && (
        <p className="mt-1 max-w-xs truncate text-xs text-red-700" title={invite.delivery_error}>
          {invite.delivery_attempts} {invite.delivery_attempts === 1 ? "attempt" : "attempts"}: {invite.delivery_error}
        </p>
      )}
    </div>
  );
}

/** Pending invitations with their mail's delivery, resend and revoke, and the invite form. The console never sends expires_in (48h default). */
export function InvitesPanel() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["invites", project.id];
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<{ data: Invite[] }>(adminPath(project.id, "/invites?limit=500")),
    refetchInterval: (query) => (query.state.data?.data.some((i) => i.delivery === "queued") ? 3000 : false),
  });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [sent, setSent] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const resend = useMutation({
    mutationFn: (i: Invite) => apiFetch<Invite>(adminPath(project.id, `/invites/${i.id}/resend`), { method: "POST" }),
    onSuccess: (i) => {
      setSent(`Invitation mail to ${i.email} queued again.`);
      qc.invalidateQueries({ queryKey: key });
    },
  });
  const invite = useMutation({
    mutationFn: () => apiFetch<Invite>(adminPath(project.id, "/invites"), { method: "POST", body: { email, role } }),
    onSuccess: (i) => {
      setSent(`Invitation for ${i.email} as ${i.role} created; its mail is queued.`);
      setEmail("");
      qc.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="text-sm font-semibold text-zinc-900">Invite someone</h2>
        <p className="mt-0.5 text-sm text-zinc-500">
          They get an e-mail and accept under My invites after signing in with that address. Invitations expire after 48
          hours.
        </p>
        <form
          className="mt-4 grid items-start gap-3 sm:grid-cols-[1fr_14rem_auto]"
          onSubmit={(e) => {
            e.preventDefault();
            setSent(null);
            invite.mutate();
          }}
        >
          <div>
            <label htmlFor="invite-email" className="sr-only">
              E-mail address
            </label>
            <input
              id="invite-email"
              type="email"
              required
              placeholder="teammate@company.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className={inputClass}
            />
          </div>
          <div>
            <RoleSelect id="invite-role" label="Role" value={role} onChange={setRole} max={project.role} />
            <RoleHelp role={role} />
          </div>
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? "Sending…" : "Send invite"}
          </Button>
        </form>
        {invite.isError && <ErrorBanner className="mt-3" message={invite.error.message} />}
        {resend.isError && <ErrorBanner className="mt-3" message={resend.error.message} />}
        {sent && (
          <p role="status" className="mt-3 text-sm text-emerald-700">
            {sent}
          </p>
        )}
      </Card>

      <QueryStatus q={q} what="invitations" rows={2} />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No pending invitations">
          Invitations you send appear here until they are accepted, revoked or expire.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <TableCard columns={["E-mail", "Role", "Invited by", "Expires", "Mail"]} actions label="Pending invitations">
          {q.data.data.map((i) => (
            <tr key={i.id}>
              <td className={`${tdClass} font-medium text-zinc-900`}>{i.email}</td>
              <td className={tdClass}>
                <Badge tone="indigo">{i.role}</Badge>
              </td>
              <td className={`${tdClass} text-zinc-500`}>{i.invited_by ?? "API key"}</td>
              <td className={`${tdClass} text-zinc-500`}>{formatRelative(i.expires_at)}</td>
              <td className={tdClass}>
                <DeliveryCell invite={i} />
              </td>
              <td className={`${tdClass} whitespace-nowrap text-right`}>
                <RowAction
                  disabled={resend.isPending && resend.variables?.id === i.id}
                  onClick={() => {
                    setSent(null);
                    resend.mutate(i);
                  }}
                  aria-label={`Resend invitation mail to ${i.email}`}
                >
                  Resend
                </RowAction>
                <RowAction onClick={() => setRevoking(i)} aria-label={`Revoke invitation for ${i.email}`}>
                  Revoke
                </RowAction>
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      <ConfirmDelete
        target={[revoking, setRevoking]}
        title="Revoke invitation?"
        body={
          <>
            The invitation for <strong>{revoking?.email}</strong> stops working. You can invite them again later.
          </>
        }
        confirmLabel="Revoke"
        path={(t) => `/invites/${t.id}`}
        after={() => qc.invalidateQueries({ queryKey: key })}
      />
    </div>
  );
}
