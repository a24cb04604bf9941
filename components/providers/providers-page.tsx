"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Provider } from "@/components/messages/types";
import { CreateProviderDialog } from "@/components/providers/create-provider-dialog";
import { Button, RowAction } from "@/components/ui/button";
import { ConfirmDelete } from "@/components/console/confirm-delete";
import { formatRelative } from "@/components/ui/format";
import { Badge, Banner, EmptyState, PageHeader, tdClass, TableCard } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import { QueryStatus } from "@/components/ui/query-state";

/** E-mail and SMS providers (admins only): their secrets masked, the deployment's SMTP the fallback. */
export function ProvidersPage() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["providers", project.id];
  const isAdmin = roleAtLeast(project.role, "admin");
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Page<Provider> & { deployment_email: boolean }>(adminPath(project.id, "/providers")),
  });
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<Provider | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  // One provider per channel: once both are set, there is nothing to add.
  const full = (q.data?.data.length ?? 0) >= 2;
  const add = isAdmin && !full ? <Button onClick={() => setCreating(true)}>Add provider</Button> : null;
  const hasEmail = q.data?.data.some((p) => p.channel === "email");
  return (
    <>
      <PageHeader
        title="Providers"
        description="The services that carry this project's e-mail and SMS. Secrets are stored encrypted and never shown again. Without an e-mail provider, e-mail goes through the deployment's own SMTP server."
        actions={add}
      />
      {!isAdmin && <p className="mb-4 text-sm text-zinc-500">Only a project admin adds or removes providers.</p>}
      {notice && (
        <Banner tone="success" className="mb-4">
          {notice}
        </Banner>
      )}
      <QueryStatus q={q} what="providers" />
      {q.data && !hasEmail && q.data.data.length > 0 && (
        <p className="mb-3 text-sm text-zinc-500">
          No e-mail provider: e-mail goes through the deployment&apos;s SMTP.
        </p>
      )}
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No providers" action={add}>
          {q.data.deployment_email
            ? "E-mail goes through the deployment's SMTP server until you add one. SMS needs a Twilio account."
            : "Add an SMTP server to send e-mail (the deployment has none), and a Twilio account for SMS."}
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <TableCard
          className="overflow-x-auto"
          columns={["Provider", "Channel", "Connection", "From", "Rate", "Added"]}
          actions
          label="Providers"
        >
          {q.data.data.map((p) => (
            <tr key={p.id}>
              <td className={`${tdClass} font-medium text-zinc-900`}>{p.name}</td>
              <td className={tdClass}>
                <Badge tone={p.channel === "email" ? "indigo" : "green"}>
                  {p.channel === "email" ? "E-mail" : "SMS"}
                </Badge>{" "}
                <span className="text-xs text-zinc-500">{p.kind === "smtp" ? "SMTP" : "Twilio"}</span>
              </td>
              <td className={tdClass}>
                <code className="block max-w-xs truncate font-mono text-xs text-zinc-600" title={p.url ?? undefined}>
                  {p.kind === "smtp" ? p.url : `${p.account_sid} · ${p.api_base ?? "api.twilio.com"}`}
                </code>
              </td>
              <td className={`${tdClass} text-xs`}>{p.from}</td>
              <td className={`${tdClass} tabular-nums`}>{p.rate_per_second ? `${p.rate_per_second}/s` : "—"}</td>
              <td className={`${tdClass} text-xs text-zinc-500`}>{formatRelative(p.created_at)}</td>
              <td className={`${tdClass} text-right`}>
                {isAdmin && (
                  <RowAction onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
                    Remove
                  </RowAction>
                )}
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      <CreateProviderDialog
        taken={q.data?.data.map((p) => p.channel) ?? []}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(p) => {
          setCreating(false);
          setNotice(`${p.name} added. Its secret is stored encrypted and will not be shown again.`);
          refresh();
        }}
      />
      <ConfirmDelete
        target={[removing, setRemoving]}
        title="Remove provider?"
        body={
          <>
            Messages stop going through <strong>{removing?.name}</strong>; e-mail falls back to the deployment&apos;s
            SMTP server.
          </>
        }
        confirmLabel="Remove"
        path={(p) => `/providers/${p.id}`}
        after={() => {
          setNotice(null);
          refresh();
        }}
      />
    </>
  );
}
