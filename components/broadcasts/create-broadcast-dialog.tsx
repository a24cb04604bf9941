"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { List, Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Broadcast, Template } from "@/components/messages/types";
import { Dialog } from "@/components/ui/dialog";
import { DialogForm, Field, NameField, TextField } from "@/components/ui/dialog-form";
import { inputClass } from "@/components/ui/states";

/**
 * `datetime-local`'s value as the API's `send_at`: the browser's local time as an instant, or, in each
 * user's time zone, the wall-clock time itself (the API reads it as UTC and applies each user's zone).
 */
const sendAtOf = (local: string, inUserTimezone: boolean) =>
  inUserTimezone ? `${local.length === 16 ? `${local}:00` : local}Z` : new Date(local).toISOString();

/** Sends a template to a list's members, now or at a time (optionally each user's local time). */
export function CreateBroadcastDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (b: Broadcast) => void;
}) {
  const project = useProject();
  const [name, setName] = useState("");
  const [templateId, setTemplateId] = useState("");
  const [listId, setListId] = useState("");
  const [when, setWhen] = useState<"now" | "later">("now");
  const [at, setAt] = useState("");
  const [userTz, setUserTz] = useState(false);
  const [rate, setRate] = useState("");
  const templates = useQuery({
    queryKey: ["templates", project.id],
    queryFn: () => apiFetch<Page<Template>>(adminPath(project.id, "/templates?limit=500")),
    enabled: open,
  });
  const lists = useQuery({
    queryKey: ["lists", project.id],
    queryFn: () => apiFetch<{ data: List[] }>(adminPath(project.id, "/lists?limit=500")),
    enabled: open,
  });
  const reset = () => {
    setName("");
    setTemplateId("");
    setListId("");
    setWhen("now");
    setAt("");
    setUserTz(false);
    setRate("");
  };
  const create = useMutation({
    mutationFn: () =>
      apiFetch<Broadcast>(adminPath(project.id, "/broadcasts"), {
        method: "POST",
        body: {
          name,
          template_id: templateId,
          list_id: listId,
          ...(when === "later" ? { send_at: sendAtOf(at, userTz), in_user_timezone: userTz } : {}),
          ...(rate.trim() ? { rate_per_second: Number(rate) } : {}),
        },
      }),
    onSuccess: (b) => {
      reset();
      onCreated(b);
    },
  });
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="New broadcast">
      <DialogForm
        mutation={create}
        onCancel={close}
        labels={[when === "now" ? "Send now" : "Schedule", "Saving…"]}
        disabled={!name.trim() || !templateId || !listId || (when === "later" && !at)}
      >
        <NameField id="bc-name" value={name} onChange={setName} placeholder="November newsletter" />
        <Field id="bc-template" label="Template">
          <select
            id="bc-template"
            required
            value={templateId}
            onChange={(e) => setTemplateId(e.target.value)}
            className={`${inputClass} mt-1`}
          >
            <option value="">{templates.isPending ? "Loading…" : "Choose a template…"}</option>
            {templates.data?.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.channel === "email" ? "e-mail" : "SMS"})
              </option>
            ))}
          </select>
        </Field>
        <Field id="bc-list" label="List">
          <select
            id="bc-list"
            required
            value={listId}
            onChange={(e) => setListId(e.target.value)}
            className={`${inputClass} mt-1`}
          >
            <option value="">{lists.isPending ? "Loading…" : "Choose a list…"}</option>
            {lists.data?.data.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-zinc-500">The list&apos;s members when sending starts each get it once.</p>
        </Field>
        <fieldset>
          <legend className="text-sm font-medium text-zinc-700">When</legend>
          <div className="mt-1 space-y-2 text-sm text-zinc-800">
            <label className="flex items-center gap-2">
              <input type="radio" name="bc-when" checked={when === "now"} onChange={() => setWhen("now")} />
              Now
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="bc-when" checked={when === "later"} onChange={() => setWhen("later")} />
              At
              <input
                type="datetime-local"
                aria-label="Send at"
                value={at}
                disabled={when !== "later"}
                onChange={(e) => setAt(e.target.value)}
                className={`${inputClass} w-auto py-1 disabled:bg-zinc-50`}
              />
            </label>
            <label className="flex items-center gap-2 pl-6">
              <input
                type="checkbox"
                checked={userTz}
                disabled={when !== "later"}
                onChange={(e) => setUserTz(e.target.checked)}
              />
              At that time in each user&apos;s time zone
            </label>
          </div>
        </fieldset>
        <TextField
          id="bc-rate"
          label="Messages per second (optional)"
          type="number"
          min={1}
          value={rate}
          onChange={setRate}
          hint="The provider's own limit applies too."
        />
      </DialogForm>
    </Dialog>
  );
}
