"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { pagingProps, useCursorPager } from "@/components/data-table/cursor-pager";
import { DataTable, type Columns } from "@/components/data-table/data-table";
import { QueryState } from "@/components/ui/query-state";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/components/ui/format";
import { Badge, Card, EmptyState, ErrorBanner, LoadingRows, PageHeader } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { ListView } from "@/lib/lists/schemas";
import { CheckUser } from "@/components/explain/check-user";
import { ListEditor } from "./list-editor";
import { StaticMembersForm } from "./static-members-form";
import { memberCountLabel } from "./member-count";

type Member = { user_id: string; added_at: string };
type Change = { event_id: string; change: "added" | "removed"; user_id: string | null; at: string };
type Page<T> = { data: T[]; next_cursor: string | null };

/**
 * A user id cut to its last 12 digits (the full id on hover and for screen readers): two tables side by
 * side at 1280 px cannot hold full UUIDs and their dates.
 */
function UserLink({ projectId, userId }: { projectId: string; userId: string }) {
  return (
    <Link
      className="whitespace-nowrap font-mono text-xs text-indigo-700 hover:underline"
      href={`/projects/${projectId}/users/${userId}`}
      title={userId}
      aria-label={`User ${userId}`}
    >
      …{userId.slice(-12)}
    </Link>
  );
}

function Members({ list }: { list: ListView }) {
  const project = useProject();
  const qc = useQueryClient();
  const pager = useCursorPager(list.id);
  const key = ["list-members", project.id, list.id, pager.cursor];
  const q = useQuery({
    queryKey: key,
    queryFn: () =>
      apiFetch<Page<Member>>(
        adminPath(project.id, `/lists/${list.id}/users?limit=25${pager.cursor ? `&cursor=${pager.cursor}` : ""}`),
      ),
    placeholderData: keepPreviousData,
  });
  const editable = list.kind === "static" && roleAtLeast(project.role, "editor");
  // Optimistic: the row leaves at once and comes back if the server refuses.
  const remove = useMutation({
    mutationFn: (userId: string) =>
      apiFetch(adminPath(project.id, `/lists/${list.id}/users`), { method: "DELETE", body: { user_ids: [userId] } }),
    onMutate: async (userId) => {
      const listKey = ["list", project.id, list.id];
      await Promise.all([qc.cancelQueries({ queryKey: key }), qc.cancelQueries({ queryKey: listKey })]);
      const before = qc.getQueryData<Page<Member>>(key);
      const listBefore = qc.getQueryData<ListView>(listKey);
      if (before) qc.setQueryData(key, { ...before, data: before.data.filter((m) => m.user_id !== userId) });
      // The count in the header drops with the row.
      if (listBefore && !listBefore.member_count_capped)
        qc.setQueryData(listKey, { ...listBefore, member_count: Math.max(0, listBefore.member_count - 1) });
      return { before, listBefore, listKey };
    },
    onError: (_e, _id, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before);
      if (ctx?.listBefore) qc.setQueryData(ctx.listKey, ctx.listBefore);
    },
    onSettled: () => {
      qc.invalidateQueries({ queryKey: ["list-members", project.id, list.id] });
      qc.invalidateQueries({ queryKey: ["list-history", project.id, list.id] });
      qc.invalidateQueries({ queryKey: ["list", project.id, list.id] });
    },
  });
  const columns = useMemo<Columns<Member>>(
    () => [
      {
        id: "user",
        header: "User",
        cell: ({ row }) => <UserLink projectId={project.id} userId={row.original.user_id} />,
      },
      { id: "added", header: "Added", cell: ({ row }) => formatDateTime(row.original.added_at) },
      ...(editable
        ? [
            {
              id: "remove",
              header: () => <span className="sr-only">Remove</span>,
              cell: ({ row }: { row: { original: Member } }) => (
                <Button size="sm" variant="ghost" onClick={() => remove.mutate(row.original.user_id)}>
                  Remove
                </Button>
              ),
            },
          ]
        : []),
    ],
    [editable, project.id, remove],
  );
  return (
    <Card className="overflow-hidden">
      <h2 className="px-5 pt-4 text-sm font-semibold text-zinc-900">Members ({memberCountLabel(list)})</h2>
      {remove.isError && <ErrorBanner className="mx-5 mt-2" message={`Not removed: ${remove.error.message}`} />}
      {q.isPending ? (
        <div className="p-5">
          <LoadingRows rows={3} label="Loading members" />
        </div>
      ) : q.isError ? (
        <ErrorBanner className="m-5" message={q.error.message} />
      ) : q.data.data.length === 0 && pager.page === 1 ? (
        <p className="px-5 pb-5 pt-2 text-sm text-zinc-500">
          No members
          {list.kind === "dynamic"
            ? " match the rules yet (a new or changed list is evaluated in the background)"
            : " yet"}
          .
        </p>
      ) : (
        <DataTable
          rows={q.data.data}
          columns={columns}
          rowKey={(m) => m.user_id}
          caption="List members, most recently added first"
          {...pagingProps(pager, q)}
        />
      )}
    </Card>
  );
}

function History({ list }: { list: ListView }) {
  const project = useProject();
  const pager = useCursorPager(list.id);
  const q = useQuery({
    queryKey: ["list-history", project.id, list.id, pager.cursor],
    queryFn: () =>
      apiFetch<Page<Change>>(
        adminPath(project.id, `/lists/${list.id}/history?limit=25${pager.cursor ? `&cursor=${pager.cursor}` : ""}`),
      ),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<Columns<Change>>(
    () => [
      {
        id: "change",
        header: "Change",
        cell: ({ row }) => (
          <Badge tone={row.original.change === "added" ? "green" : "zinc"}>
            {row.original.change === "added" ? "entered" : "left"}
          </Badge>
        ),
      },
      {
        id: "user",
        header: "User",
        cell: ({ row }) =>
          row.original.user_id ? <UserLink projectId={project.id} userId={row.original.user_id} /> : "erased user",
      },
      { id: "at", header: "When", cell: ({ row }) => formatDateTime(row.original.at) },
    ],
    [project.id],
  );
  return (
    <Card className="overflow-hidden">
      <h2 className="px-5 pt-4 text-sm font-semibold text-zinc-900">Entries and exits</h2>
      {q.isPending ? (
        <div className="p-5">
          <LoadingRows rows={3} label="Loading history" />
        </div>
      ) : q.isError ? (
        <ErrorBanner className="m-5" message={q.error.message} />
      ) : q.data.data.length === 0 && pager.page === 1 ? (
        <p className="px-5 pb-5 pt-2 text-sm text-zinc-500">Nobody has entered or left yet.</p>
      ) : (
        <DataTable
          rows={q.data.data}
          columns={columns}
          rowKey={(c) => c.event_id}
          caption="Entries and exits, newest first"
          {...pagingProps(pager, q)}
        />
      )}
    </Card>
  );
}

/** One list: its rules (editable by editors), static members by hand, members and history. */
export function ListDetail({ listId }: { listId: string }) {
  const project = useProject();
  const q = useQuery({
    queryKey: ["list", project.id, listId],
    queryFn: () => apiFetch<ListView>(adminPath(project.id, `/lists/${listId}`)),
    refetchInterval: 10_000,
  });
  const canEdit = roleAtLeast(project.role, "editor");
  return (
    <QueryState q={q} what="list">
      {(list) => (
        <>
          <PageHeader
            title={list.name}
            description={
              <>
                <Link href={`/projects/${project.id}/lists`} className="text-indigo-700 hover:underline">
                  Lists
                </Link>{" "}
                · {list.kind} · {memberCountLabel(list)} member
                {list.member_count === 1 && !list.member_count_capped ? "" : "s"}
                {list.windowed ? " · re-evaluated every minute (time window)" : ""}
              </>
            }
          />
          <div className="space-y-6">
            {canEdit ? (
              <ListEditor key={list.updated_at} list={list} />
            ) : (
              list.kind === "dynamic" && (
                <EmptyState title="Read-only">Editors and admins can change this list's rules.</EmptyState>
              )
            )}
            {list.kind === "static" && canEdit && <StaticMembersForm projectId={project.id} listId={list.id} />}
            <CheckUser projectId={project.id} listId={list.id} />
            <div className="grid gap-6 xl:grid-cols-2">
              <Members list={list} />
              <History list={list} />
            </div>
          </div>
        </>
      )}
    </QueryState>
  );
}
