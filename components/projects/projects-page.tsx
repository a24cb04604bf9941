"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/console/api";
import { Button } from "@/components/ui/button";
import { DialogForm, Field, NameField, TextField } from "@/components/ui/dialog-form";
import { Dialog } from "@/components/ui/dialog";
import { Badge, Card, EmptyState, inputClass, PageHeader } from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import type { MyProject } from "@/lib/projects/schemas";

type Mine = { data: MyProject[]; orgs: { id: string; name: string; role: string }[] };

export function ProjectsPage() {
  const q = useQuery({ queryKey: ["my-projects"], queryFn: () => apiFetch<Mine>("/api/console/projects") });
  const [creating, setCreating] = useState(false);
  const newButton = <Button onClick={() => setCreating(true)}>New project</Button>;
  return (
    <>
      <PageHeader
        title="Projects"
        description="Each project keeps its own users, events, schedules and keys."
        actions={q.data ? newButton : undefined}
      />
      <QueryStatus q={q} what="projects" rows={3} />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No projects yet" action={newButton}>
          Create your first project to get an API key and start sending users and events. Invited to someone else's?
          Check{" "}
          <Link href="/invites" className="text-indigo-600 underline">
            My invites
          </Link>
          .
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {q.data.data.map((p) => (
            <li key={p.id}>
              <Link
                href={`/projects/${p.id}`}
                className="block rounded-xl focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
              >
                <Card className="p-5 transition-shadow hover:shadow-md">
                  <p className="text-xs uppercase tracking-wide text-zinc-400">{p.org_name}</p>
                  <p className="mt-1 font-medium text-zinc-900">{p.name}</p>
                  <div className="mt-4 flex items-center gap-2">
                    <Badge tone={p.role === "admin" ? "indigo" : "zinc"}>{p.role}</Badge>
                    {p.inherited && <span className="text-xs text-zinc-400">via organization</span>}
                  </div>
                </Card>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {q.data && (
        <CreateProjectDialog
          open={creating}
          onClose={() => setCreating(false)}
          orgs={q.data.orgs.filter((o) => o.role !== "member")}
        />
      )}
    </>
  );
}

function CreateProjectDialog({ open, onClose, orgs }: { open: boolean; onClose: () => void; orgs: Mine["orgs"] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [orgId, setOrgId] = useState(orgs[0]?.id ?? "");
  const [orgName, setOrgName] = useState("");
  const create = useMutation({
    mutationFn: () =>
      apiFetch<MyProject>("/api/console/projects", {
        method: "POST",
        body: orgs.length ? { name, org_id: orgId } : { name, ...(orgName ? { org_name: orgName } : {}) },
      }),
    onSuccess: (p) => {
      onClose();
      router.push(`/projects/${p.id}`);
      router.refresh();
    },
  });
  return (
    <Dialog open={open} onClose={onClose} title="New project">
      <DialogForm mutation={create} onCancel={onClose} labels={["Create project", "Creating…"]} disabled={!name.trim()}>
        <NameField id="project-name" label="Project name" value={name} onChange={setName} placeholder="Production" />
        {orgs.length > 0 ? (
          <Field id="project-org" label="Organization">
            <select
              id="project-org"
              value={orgId}
              onChange={(e) => setOrgId(e.target.value)}
              className={`${inputClass} mt-1`}
            >
              {orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <TextField
            id="org-name"
            label="Organization name"
            maxLength={100}
            value={orgName}
            onChange={setOrgName}
            placeholder="Your company"
            hint="You'll own this organization and administer all its projects."
          />
        )}
      </DialogForm>
    </Dialog>
  );
}
