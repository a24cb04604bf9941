"use client";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { buttonClass } from "@/components/ui/button";
import { Banner, Section, inputClass } from "@/components/ui/states";
import { POLICY_LABELS } from "./labels";
import type { SubscriptionGroup as Group } from "@/components/console/api-types";
export type { Group };

const CHANNELS = [
  ["email", "Email"],
  ["sms", "SMS"],
  ["push", "Push"],
] as const;

/** The groups table with create, edit and delete. */
export function GroupsCard({
  projectId,
  groups,
  reload,
}: {
  projectId: string;
  groups: Group[];
  reload: () => Promise<void>;
}) {
  const [editing, setEditing] = useState<Group | "new" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const remove = async (g: Group) => {
    if (!window.confirm(`Delete “${g.name}”? Every user's state in it and its history go too.`)) return;
    setError(null);
    try {
      await apiFetch(adminPath(projectId, `/subscription-groups/${g.id}`), { method: "DELETE" });
      await reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Section title="Groups" description="What users subscribe to. Messages of a group go out on its channel only.">
      <div className="space-y-4">
        {error ? <Banner tone="error">{error}</Banner> : null}
        {groups.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500">
            No groups yet. Create one, such as “Marketing” or “Product updates”.
          </p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="py-2 pr-3 font-medium">Name</th>
                <th className="py-2 pr-3 font-medium">Channel</th>
                <th className="py-2 pr-3 font-medium">Unset means</th>
                <th className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {groups.map((g) => (
                <tr key={g.id}>
                  <td className="py-2.5 pr-3">
                    <span className="font-medium text-zinc-900">{g.name}</span>
                    {g.description ? <span className="block text-zinc-500">{g.description}</span> : null}
                  </td>
                  <td className="py-2.5 pr-3 text-zinc-700">{CHANNELS.find(([c]) => c === g.channel)?.[1]}</td>
                  <td className="py-2.5 pr-3 text-zinc-700">
                    {POLICY_LABELS[g.effective_policy]}
                    {g.default_policy === null ? <span className="text-zinc-400"> · project default</span> : null}
                  </td>
                  <td className="py-2.5 text-right whitespace-nowrap">
                    <button
                      type="button"
                      className={buttonClass("ghost", "sm")}
                      onClick={() => setEditing(g)}
                      aria-label={`Edit ${g.name}`}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={`${buttonClass("ghost", "sm")} text-red-700 hover:bg-red-50`}
                      onClick={() => remove(g)}
                      aria-label={`Delete ${g.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {editing ? (
          <GroupForm
            projectId={projectId}
            group={editing === "new" ? null : editing}
            onDone={async () => {
              setEditing(null);
              await reload();
            }}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <button type="button" className={buttonClass()} onClick={() => setEditing("new")}>
            New group
          </button>
        )}
      </div>
    </Section>
  );
}

function GroupForm({
  projectId,
  group,
  onDone,
  onCancel,
}: {
  projectId: string;
  group: Group | null;
  onDone: () => Promise<void>;
  onCancel: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (form: FormData) => {
    const body = {
      name: String(form.get("name") ?? ""),
      channel: String(form.get("channel")),
      description: String(form.get("description") ?? "") || null,
      default_policy: form.get("default_policy") === "" ? null : form.get("default_policy"),
    };
    try {
      await apiFetch(adminPath(projectId, group ? `/subscription-groups/${group.id}` : "/subscription-groups"), {
        method: group ? "PATCH" : "POST",
        body,
      });
      await onDone();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <form action={submit} className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-4">
      <p className="text-sm font-semibold text-zinc-900">{group ? `Edit “${group.name}”` : "New group"}</p>
      {error ? <Banner tone="error">{error}</Banner> : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="text-sm text-zinc-700">
          Name
          <input name="name" required maxLength={100} defaultValue={group?.name} className={`${inputClass} mt-1`} />
        </label>
        <label className="text-sm text-zinc-700">
          Channel
          <select name="channel" defaultValue={group?.channel ?? "email"} className={`${inputClass} mt-1`}>
            {CHANNELS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm text-zinc-700">
          Unset means
          <select name="default_policy" defaultValue={group?.default_policy ?? ""} className={`${inputClass} mt-1`}>
            <option value="">Project default</option>
            <option value="opt_out">{POLICY_LABELS.opt_out}</option>
            <option value="opt_in">{POLICY_LABELS.opt_in}</option>
          </select>
        </label>
      </div>
      <label className="block text-sm text-zinc-700">
        Description (shown in the preference center)
        <input
          name="description"
          maxLength={500}
          defaultValue={group?.description ?? ""}
          className={`${inputClass} mt-1`}
        />
      </label>
      <div className="flex gap-2">
        <button type="submit" className={buttonClass()}>
          {group ? "Save" : "Create group"}
        </button>
        <button type="button" className={buttonClass("ghost", "sm")} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
