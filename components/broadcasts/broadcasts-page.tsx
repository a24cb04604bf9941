"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { List, Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { BroadcastProgress } from "@/components/broadcasts/progress";
import { CreateBroadcastDialog } from "@/components/broadcasts/create-broadcast-dialog";
import { BroadcastStateBadge } from "@/components/messages/labels";
import type { Broadcast, Template } from "@/components/messages/types";
import { Button, RowAction } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, PageHeader, tdClass, TableCard } from "@/components/ui/states";
import { TagActions, Tags, useTagParam } from "@/components/ui/tag-filter";
import { roleAtLeast } from "@/lib/access/roles";
import { QueryStatus } from "@/components/ui/query-state";

const active = (b: Broadcast) => b.state === "scheduled" || b.state === "sending";

/** Broadcasts: a template to a list, now or scheduled; progress polls every two seconds while one sends. */
export function BroadcastsPage() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["broadcasts", project.id];
  const canEdit = roleAtLeast(project.role, "editor");
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Page<Broadcast>>(adminPath(project.id, "/broadcasts?limit=100")),
    refetchInterval: (query) => (query.state.data?.data.some((b) => b.state === "sending") ? 2_000 : 15_000),
  });
  // Names for the template and list columns (both lists are small and cached with their own pages).
  const templates = useQuery({
    queryKey: ["templates", project.id],
    queryFn: () => apiFetch<Page<Template>>(adminPath(project.id, "/templates?limit=500")),
  });
  const lists = useQuery({
    queryKey: ["lists", project.id],
    queryFn: () => apiFetch<{ data: List[] }>(adminPath(project.id, "/lists?limit=500")),
  });
  const nameOf = (rows: { id: string; name: string }[] | undefined, id: string) =>
    rows?.find((r) => r.id === id)?.name ?? "…";
  const [creating, setCreating] = useState(false);
  const [cancelling, setCancelling] = useState<Broadcast | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const add = canEdit ? <Button onClick={() => setCreating(true)}>New broadcast</Button> : null;
  const [tag, setTag] = useTagParam();
  const tags = [...new Set(q.data?.data.flatMap((b) => b.tags ?? []))];
  return (
    <>
      <PageHeader
        title="Broadcasts"
        description="One template to every member of a list, now or at a set time. Each member gets it once, even across restarts; a broadcast is done when every recipient is sent, skipped or failed."
        actions={<TagActions tags={tags} value={tag} onChange={setTag} action={add} />}
      />
      <QueryStatus q={q} what="broadcasts" />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No broadcasts yet" action={add}>
          Write a template first, then send it to a list: a newsletter, an announcement, a reminder.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <TableCard
          className="overflow-x-auto"
          columns={["Broadcast", "State", "Progress", "Send at"]}
          actions
          label="Broadcasts"
        >
          {q.data.data
            .filter((b) => !tag || b.tags?.includes(tag))
            .map((b) => (
              <tr key={b.id}>
                <td className={tdClass}>
                  <div className="font-medium text-zinc-900">
                    {b.name}
                    <Tags tags={b.tags} />
                  </div>
                  <div className="text-xs text-zinc-500">
                    {nameOf(templates.data?.data, b.template_id)} → {nameOf(lists.data?.data, b.list_id)}
                  </div>
                </td>
                <td className={tdClass}>
                  <BroadcastStateBadge state={b.state} />
                </td>
                <td className={tdClass}>
                  <BroadcastProgress b={b} />
                </td>
                <td className={`${tdClass} whitespace-nowrap text-xs text-zinc-600`}>
                  {formatDateTime(b.send_at)}
                  {b.in_user_timezone && <span className="block text-zinc-400">in each user&apos;s time zone</span>}
                  {b.rate_per_second && <span className="block text-zinc-400">{b.rate_per_second}/s</span>}
                </td>
                <td className={`${tdClass} text-right`}>
                  <div className="flex justify-end gap-1">
                    <Link
                      href={`/projects/${project.id}/broadcasts/${b.id}`}
                      className="rounded-md px-2.5 py-1 text-xs font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                      aria-label={`Report of ${b.name}`}
                    >
                      Report
                    </Link>
                    <Link
                      href={`/projects/${project.id}/messages?broadcast_id=${b.id}`}
                      className="rounded-md px-2.5 py-1 text-xs font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
                      aria-label={`Messages of ${b.name}`}
                    >
                      Messages
                    </Link>
                    {canEdit && active(b) && (
                      <RowAction onClick={() => setCancelling(b)} aria-label={`Cancel ${b.name}`}>
                        Cancel
                      </RowAction>
                    )}
                  </div>
                </td>
              </tr>
            ))}
        </TableCard>
      )}
      <CreateBroadcastDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          refresh();
        }}
      />
      <ConfirmDialog
        open={cancelling !== null}
        onClose={() => setCancelling(null)}
        title="Cancel broadcast?"
        body={
          <>
            <strong>{cancelling?.name}</strong> stops: messages not yet handed to the provider are not sent. Messages
            already sent stay sent.
          </>
        }
        confirmLabel="Cancel broadcast"
        onConfirm={async () => {
          await apiFetch(adminPath(project.id, `/broadcasts/${cancelling!.id}/cancel`), { method: "POST" });
          refresh();
        }}
      />
    </>
  );
}
