"use client";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { z } from "zod";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button, RowAction } from "@/components/ui/button";
import { ConfirmDelete } from "@/components/console/confirm-delete";
import { formatDateTime } from "@/components/ui/format";
import { QueryStatus } from "@/components/ui/query-state";
import { Badge, Banner, EmptyState, inputClass, PageHeader, tdClass, TableCard } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { suppressionOutput } from "@/lib/suppressions/schemas";
import { AddSuppressionsDialog } from "./add-suppressions-dialog";

type Suppression = z.output<typeof suppressionOutput>;

const REASONS: Record<Suppression["reason"], { label: string; tone: "red" | "amber" | "zinc" }> = {
  hard_bounce: { label: "hard bounce", tone: "red" },
  soft_bounces: { label: "soft bounces", tone: "amber" },
  complaint: { label: "complaint", tone: "red" },
  carrier: { label: "carrier refusal", tone: "red" },
  manual: { label: "manual", tone: "zinc" },
};

/** The project's suppression list: search by the start of an address, add, and (admins) remove. */
export function SuppressionsPage() {
  const project = useProject();
  const qc = useQueryClient();
  const [search, setSearch] = useState("");
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Suppression | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const canAdd = roleAtLeast(project.role, "editor");
  const canRemove = roleAtLeast(project.role, "admin");
  const key = ["suppressions", project.id, search.trim()];
  const q = useInfiniteQuery({
    queryKey: key,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: "100" });
      if (search.trim()) params.set("address", search.trim());
      if (pageParam) params.set("cursor", pageParam);
      return apiFetch<Page<Suppression>>(adminPath(project.id, `/suppressions?${params}`));
    },
    getNextPageParam: (last) => last.next_cursor,
  });
  const rows = q.data?.pages.flatMap((p) => p.data) ?? [];
  const refresh = () => qc.invalidateQueries({ queryKey: ["suppressions", project.id] });
  const addButton = canAdd ? <Button onClick={() => setAdding(true)}>Suppress addresses</Button> : null;
  return (
    <>
      <PageHeader
        title="Suppressions"
        description="No message goes to these addresses: each send is skipped with reason “suppressed”. Hard bounces, complaints and carrier refusals add an address at once; soft bounces after the project's bounce policy (3 within 7 days unless set)."
        actions={addButton}
      />
      {notice && (
        <Banner tone="success" className="mb-4">
          {notice}
        </Banner>
      )}
      <div className="mb-4 max-w-sm">
        <label htmlFor="suppression-search" className="sr-only">
          Search addresses
        </label>
        <input
          id="suppression-search"
          type="search"
          className={inputClass}
          placeholder="Search by the start of an address"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <QueryStatus q={q} what="suppressions" />
      {q.data && rows.length === 0 && (
        <EmptyState
          title={search ? "No suppressed address starts with this" : "No suppressed addresses"}
          action={addButton}
        >
          Addresses appear here when a message to them bounces hard or is reported as spam.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <TableCard
          className="overflow-x-auto"
          columns={["Address", "Channel", "Reason", "Source", "Caused by", "Since"]}
          actions={canRemove}
        >
          {rows.map((s) => (
            <tr key={`${s.channel}:${s.address}`}>
              <td className={`${tdClass} font-mono text-xs`}>{s.address}</td>
              <td className={tdClass}>{s.channel === "email" ? "E-mail" : "SMS"}</td>
              <td className={tdClass}>
                <Badge tone={REASONS[s.reason].tone}>{REASONS[s.reason].label}</Badge>
              </td>
              <td className={tdClass}>{s.source}</td>
              <td className={tdClass}>
                {s.message_id ? (
                  <Link
                    className="font-medium text-indigo-600 hover:underline"
                    href={`/projects/${project.id}/messages?message=${s.message_id}`}
                  >
                    The message
                  </Link>
                ) : (
                  <span className="text-zinc-400">—</span>
                )}
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(s.created_at)}</td>
              {canRemove && (
                <td className={`${tdClass} text-right`}>
                  <RowAction onClick={() => setRemoving(s)} aria-label={`Remove ${s.address} from the list`}>
                    Remove
                  </RowAction>
                </td>
              )}
            </tr>
          ))}
        </TableCard>
      )}
      {q.hasNextPage && (
        <div className="mt-4">
          <Button variant="secondary" disabled={q.isFetchingNextPage} onClick={() => q.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
      <AddSuppressionsDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(r) => {
          setAdding(false);
          setNotice(`${r.added} added${r.already ? `; ${r.already} already suppressed` : ""}.`);
          refresh();
        }}
      />
      <ConfirmDelete
        target={[removing, setRemoving]}
        title="Remove from the suppression list?"
        body={
          <>
            Messages to <strong>{removing?.address}</strong> will be sent again. If it bounced or complained, sending to
            it may harm the project's sender reputation. The removal is recorded on the user's timeline.
          </>
        }
        confirmLabel="Remove"
        path={(s) => `/suppressions?${new URLSearchParams({ channel: s.channel, address: s.address })}`}
        after={() => void refresh()}
      />
    </>
  );
}
