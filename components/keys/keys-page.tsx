"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button, RowAction } from "@/components/ui/button";
import { DialogForm, Field, NameField } from "@/components/ui/dialog-form";
import { ConfirmDelete } from "@/components/console/confirm-delete";
import { Dialog } from "@/components/ui/dialog";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import { RoleHelp, RoleSelect } from "@/components/ui/role-select";
import { Badge, EmptyState, PageHeader, tdClass, TableCard } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import type { Role } from "@/lib/access/roles";
import type { ApiKey as Key } from "@/components/console/api-types";
import { LimitFields, LimitsDialog, OriginsDialog, OriginsField, originList } from "./key-settings-dialogs";

export function KeysPage() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["keys", project.id];
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<{ data: Key[] }>(adminPath(project.id, "/keys?limit=500")),
  });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [limiting, setLimiting] = useState<Key | null>(null);
  const [originsOf, setOriginsOf] = useState<Key | null>(null);
  const newButton = <Button onClick={() => setCreating(true)}>Create API key</Button>;
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate your backend and scripts: send{" "}
            <code className="rounded bg-zinc-100 px-1 font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>. A key
            can do what its role can.
          </>
        }
        actions={newButton}
      />
      <QueryStatus q={q} what="API keys" />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No API keys" action={newButton}>
          Create a key with the client role to send users and events from your backend.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <TableCard columns={["Name", "Key", "Role", "Rate limit", "Browser origins", "Last used", "Created"]} actions>
          {q.data.data.map((k) => (
            <tr key={k.id}>
              <td className={`${tdClass} font-medium text-zinc-900`}>{k.name}</td>
              <td className={tdClass}>
                <code className="font-mono text-xs text-zinc-600">{k.prefix}…</code>
              </td>
              <td className={tdClass}>
                <Badge tone={k.role === "admin" ? "indigo" : "zinc"}>{k.role}</Badge>
              </td>
              <td className={`${tdClass} text-zinc-600`}>
                <button
                  type="button"
                  className="rounded underline decoration-dotted underline-offset-2 hover:text-indigo-700"
                  onClick={() => setLimiting(k)}
                  aria-label={`Change rate limit of ${k.name}`}
                >
                  {k.rate_limit_per_second}/s, burst {k.rate_limit_burst}
                </button>
              </td>
              <td className={`${tdClass} text-zinc-600`}>
                {k.role === "client" ? (
                  <button
                    type="button"
                    className="rounded text-left underline decoration-dotted underline-offset-2 hover:text-indigo-700"
                    onClick={() => setOriginsOf(k)}
                    aria-label={`Change browser origins of ${k.name}`}
                  >
                    {k.allowed_origins ? k.allowed_origins.join(", ") : "Server only"}
                  </button>
                ) : (
                  <span className="text-zinc-400">Server only</span>
                )}
              </td>
              <td className={`${tdClass} text-zinc-500`}>
                {k.last_used_at ? formatRelative(k.last_used_at) : "Never"}
              </td>
              <td className={`${tdClass} text-zinc-500`}>
                {formatDateTime(k.created_at)}
                {k.created_by && <span className="block text-xs text-zinc-400">by {k.created_by}</span>}
              </td>
              <td className={`${tdClass} text-right`}>
                <RowAction onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                  Revoke
                </RowAction>
              </td>
            </tr>
          ))}
        </TableCard>
      )}
      <OriginsDialog
        target={originsOf}
        onClose={() => setOriginsOf(null)}
        onSaved={() => qc.invalidateQueries({ queryKey: key })}
      />
      <LimitsDialog
        target={limiting}
        onClose={() => setLimiting(null)}
        onSaved={() => qc.invalidateQueries({ queryKey: key })}
      />
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => qc.invalidateQueries({ queryKey: key })}
      />
      <ConfirmDelete
        target={[revoking, setRevoking]}
        title="Revoke API key?"
        body={
          <>
            Requests using <strong>{revoking?.name}</strong> ({revoking?.prefix}…) will be refused immediately. This
            cannot be undone.
          </>
        }
        confirmLabel="Revoke key"
        path={(t) => `/keys/${t.id}`}
        after={() => qc.invalidateQueries({ queryKey: key })}
      />
    </>
  );
}

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const project = useProject();
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("client");
  const [rate, setRate] = useState(100);
  const [burst, setBurst] = useState(500);
  const [origins, setOrigins] = useState("");
  const create = useMutation({
    mutationFn: () =>
      apiFetch<Key & { secret: string }>(adminPath(project.id, "/keys"), {
        method: "POST",
        body: {
          name,
          role,
          rate_limit_per_second: rate,
          rate_limit_burst: burst,
          ...(role === "client" && originList(origins) ? { allowed_origins: originList(origins) } : {}),
        },
      }),
    onSuccess: onCreated,
  });
  const close = () => {
    create.reset();
    setName("");
    setOrigins("");
    onClose();
  };
  const secret = create.data?.secret;
  return (
    <Dialog open={open} onClose={close} title={secret ? "Copy your new key" : "Create API key"}>
      {secret ? (
        <SecretReveal key={secret} label="New API key secret" value={secret} onDone={close}>
          This is the only time the secret is shown. Store it somewhere safe; we keep only a hash.
        </SecretReveal>
      ) : (
        <DialogForm mutation={create} onCancel={close} labels={["Create key", "Creating…"]} disabled={!name.trim()}>
          <NameField id="key-name" value={name} onChange={setName} placeholder="Production backend" />
          <Field id="key-role" label="Role">
            <div className="mt-1">
              <RoleSelect id="key-role" value={role} onChange={setRole} max={project.role} />
            </div>
            <RoleHelp role={role} />
          </Field>
          {role === "client" && <OriginsField value={origins} onChange={setOrigins} />}
          <LimitFields rate={rate} burst={burst} setRate={setRate} setBurst={setBurst} />
        </DialogForm>
      )}
    </Dialog>
  );
}

/** Sustained rate and burst inputs, shared by the create and change dialogs. */
