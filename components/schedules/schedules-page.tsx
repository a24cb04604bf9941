"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button, RowAction } from "@/components/ui/button";
import { DialogForm, Field } from "@/components/ui/dialog-form";
import { ConfirmDelete } from "@/components/console/confirm-delete";
import { Dialog } from "@/components/ui/dialog";
import { Badge, Card, controlClass, EmptyState, ErrorBanner, inputClass, PageHeader } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import { QueryState } from "@/components/ui/query-state";
import { AssignmentsPanel } from "./schedule-assignments";
import type { Offset, Schedule } from "@/components/console/api-types";

export function SchedulesPage() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["schedules", project.id];
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<{ data: Schedule[] }>(adminPath(project.id, "/schedules?limit=500")),
  });
  const canEdit = roleAtLeast(project.role, "editor");
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  return (
    <>
      <PageHeader
        title="Schedules"
        description={
          <>
            Time-based triggers. Each offset fires <code className="font-mono text-xs">scheduled.&lt;name&gt;</code>{" "}
            before or after the assigned time; assignments are made per user or organization through the client API.
          </>
        }
        actions={canEdit && q.isSuccess ? <Button onClick={() => setCreating(true)}>New schedule</Button> : undefined}
      />
      <QueryState q={q} what="schedules">
        {(data) => {
          if (!data.data.length)
            return (
              <EmptyState title="No schedules">
                Every project gets the built-in anniversary schedule; create your own for trials, renewals or reminders.
              </EmptyState>
            );
          // Stable order (built-in first, then by name) so the selected definition does not jump as others are added.
          const defs = [...data.data].sort(
            (a, b) => Number(b.builtin) - Number(a.builtin) || a.name.localeCompare(b.name),
          );
          const current = defs.find((s) => s.id === selected) ?? defs[0]!;
          return (
            <div className="grid items-start gap-6 lg:grid-cols-[19rem_1fr]">
              <ul className="space-y-3" aria-label="Schedule definitions">
                {defs.map((s) => (
                  <li key={s.id}>
                    <Card className={`p-4 ${s.id === current.id ? "ring-2 ring-indigo-500" : ""}`}>
                      <div className="flex items-start justify-between gap-2">
                        <button
                          type="button"
                          onClick={() => setSelected(s.id)}
                          aria-pressed={s.id === current.id}
                          className="text-left focus:outline-none focus-visible:underline"
                        >
                          <span className="block font-mono text-sm font-medium text-zinc-900">{s.name}</span>
                          <span className="mt-1 flex gap-1">
                            <Badge>{s.type}</Badge>
                            {s.builtin && <Badge tone="indigo">built-in</Badge>}
                          </span>
                        </button>
                        {canEdit && !s.builtin && (
                          <RowAction onClick={() => setDeleting(s)} aria-label={`Delete schedule ${s.name}`}>
                            Delete
                          </RowAction>
                        )}
                      </div>
                      <OffsetList schedule={s} canEdit={canEdit} canRemove={canEdit} onChange={refresh} />
                    </Card>
                  </li>
                ))}
              </ul>
              <AssignmentsPanel schedule={current} canEdit={canEdit} />
            </div>
          );
        }}
      </QueryState>
      <CreateScheduleDialog open={creating} onClose={() => setCreating(false)} onCreated={refresh} />
      <ConfirmDelete
        target={[deleting, setDeleting]}
        title="Delete schedule?"
        body={
          <>
            Deleting <strong>{deleting?.name}</strong> removes its offsets, every assignment and all pending firings.
          </>
        }
        confirmLabel="Delete schedule"
        path={(t) => `/schedules/${t.id}`}
        after={() => refresh()}
      />
    </>
  );
}

const describeOffset = (o: Offset) =>
  /^0 \w+$|^00:00:00$|^0$/.test(o.offset.trim()) ? "at the time" : `${o.offset} ${o.direction}`;

function OffsetList({
  schedule,
  canEdit,
  canRemove,
  onChange,
}: {
  schedule: Schedule;
  canEdit: boolean;
  canRemove: boolean;
  onChange: () => void;
}) {
  const project = useProject();
  const [offset, setOffset] = useState("");
  const [direction, setDirection] = useState<"before" | "after">("before");
  const [removing, setRemoving] = useState<Offset | null>(null);
  const add = useMutation({
    mutationFn: () =>
      apiFetch(adminPath(project.id, `/schedules/${schedule.id}/offsets`), {
        method: "POST",
        body: { offset, direction },
      }),
    onSuccess: () => {
      setOffset("");
      onChange();
    },
  });
  return (
    <div className="mt-3 border-t border-zinc-100 pt-3">
      <p className="text-[11px] font-medium uppercase tracking-wide text-zinc-400">Offsets</p>
      <ul className="mt-1 flex flex-wrap gap-1.5">
        {schedule.offsets.map((o) => (
          <li
            key={o.id}
            className="inline-flex items-center gap-1 rounded-full bg-zinc-100 py-0.5 pl-2.5 pr-1 text-xs text-zinc-700"
          >
            {describeOffset(o)}
            {canEdit && canRemove && schedule.offsets.length > 1 ? (
              <button
                type="button"
                onClick={() => setRemoving(o)}
                aria-label={`Remove offset ${o.offset} ${o.direction}`}
                className="rounded-full px-1 text-zinc-400 hover:bg-zinc-200 hover:text-zinc-700"
              >
                ×
              </button>
            ) : (
              <span className="w-1" />
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <form
          className="mt-2 flex gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <input
            aria-label={`New offset for ${schedule.name}`}
            required
            placeholder="7 days"
            value={offset}
            onChange={(e) => setOffset(e.target.value)}
            className={`${controlClass} w-24 py-1 text-xs`}
          />
          <select
            aria-label="Direction"
            value={direction}
            onChange={(e) => setDirection(e.target.value as "before" | "after")}
            className={`${controlClass} py-1 text-xs`}
          >
            <option value="before">before</option>
            <option value="after">after</option>
          </select>
          <Button type="submit" size="sm" variant="secondary" disabled={add.isPending}>
            Add
          </Button>
        </form>
      )}
      {add.isError && <ErrorBanner className="mt-2" message={add.error.message} />}
      <ConfirmDelete
        target={[removing, setRemoving]}
        title="Remove offset?"
        body={
          <>
            Pending firings for <strong>{removing && describeOffset(removing)}</strong> are dropped from every
            assignment of {schedule.name}.
          </>
        }
        confirmLabel="Remove offset"
        path={(t) => `/schedules/${schedule.id}/offsets/${t.id}`}
        after={() => onChange()}
      />
    </div>
  );
}

function CreateScheduleDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const project = useProject();
  const [name, setName] = useState("");
  const [type, setType] = useState<"single" | "recurring">("single");
  const create = useMutation({
    mutationFn: () => apiFetch(adminPath(project.id, "/schedules"), { method: "POST", body: { name, type } }),
    onSuccess: () => {
      setName("");
      onCreated();
      onClose();
    },
  });
  return (
    <Dialog
      open={open}
      onClose={() => {
        create.reset();
        onClose();
      }}
      title="New schedule"
    >
      <DialogForm mutation={create} onCancel={onClose} labels={["Create schedule"]} disabled={!name.trim()}>
        <Field id="schedule-name" label="Name">
          <input
            id="schedule-name"
            required
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="trial_end"
            className={`${inputClass} mt-1 font-mono`}
          />
          <p className="mt-1 text-xs text-zinc-500">
            Fires events named <code className="font-mono">scheduled.{name || "<name>"}</code>. Starts with one offset:
            at the time.
          </p>
        </Field>
        <Field id="schedule-type" label="Type">
          <select
            id="schedule-type"
            value={type}
            onChange={(e) => setType(e.target.value as "single" | "recurring")}
            className={`${inputClass} mt-1`}
          >
            <option value="single">Single: fires once at the assigned time</option>
            <option value="recurring">Recurring: fires every interval</option>
          </select>
        </Field>
      </DialogForm>
    </Dialog>
  );
}
