"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Journey, Page, UserRow } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { useCursorPager } from "@/components/data-table/cursor-pager";
import { type Columns, timeColumn } from "@/components/data-table/data-table";
import { PagedTable } from "@/components/data-table/paged-table";
import { MESSAGE_STATES, MessageStateBadge, reasonText } from "@/components/messages/labels";
import { MessageDetail } from "@/components/messages/message-detail";
import type { Broadcast, Message, Template } from "@/components/messages/types";
import { UserPicker, userLabel } from "@/components/messages/user-picker";
import { Button } from "@/components/ui/button";
import { REPORT_METRICS } from "@/lib/reports/metrics";
import { Card, EmptyState, PageHeader, controlClass } from "@/components/ui/states";

const FILTERS = ["user_id", "template_id", "journey_id", "step", "broadcast_id", "state", "event"] as const;
/** What a message did, as the log filters it: every figure of a report but `sent` (a state). */
const EVENTS = REPORT_METRICS.filter((m) => m !== "sent");

const detailLabel = (m: Message) => `Details of the message to ${m.recipient ?? "nobody"}`;

/** Every message sent, queued, skipped or failed, newest first; filters live in the URL so links can share them. */
export function MessagesPage() {
  const project = useProject();
  const router = useRouter();
  const params = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ""])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const filterKey = FILTERS.map((f) => filters[f]).join("|");
  const pager = useCursorPager(filterKey);
  const [open, setOpen] = useState<string | null>(null);
  // `?message=<id>`: one message shown above the log (the suppression list links the message that caused it).
  const focused = /^[0-9a-f-]{36}$/i.test(params.get("message") ?? "") ? params.get("message") : null;
  const qs = new URLSearchParams({ limit: "50" });
  for (const f of FILTERS) if (filters[f]) qs.set(f, filters[f]);
  if (pager.cursor) qs.set("cursor", pager.cursor);
  const q = useQuery({
    queryKey: ["messages", project.id, qs.toString()],
    queryFn: () => apiFetch<Page<Message>>(adminPath(project.id, `/messages?${qs}`)),
    placeholderData: keepPreviousData,
    refetchInterval: pager.page === 1 ? 5_000 : false,
  });
  const templates = useQuery({
    queryKey: ["templates", project.id],
    queryFn: () => apiFetch<Page<Template>>(adminPath(project.id, "/templates?limit=500")),
  });
  const journeys = useQuery({
    queryKey: ["journeys", project.id],
    queryFn: () => apiFetch<Page<Journey>>(adminPath(project.id, "/journeys?limit=500")),
  });
  const broadcasts = useQuery({
    queryKey: ["broadcasts", project.id],
    queryFn: () => apiFetch<Page<Broadcast>>(adminPath(project.id, "/broadcasts?limit=100")),
  });
  const user = useQuery({
    queryKey: ["user", project.id, filters.user_id],
    queryFn: () => apiFetch<UserRow>(adminPath(project.id, `/users/${filters.user_id}`)),
    enabled: !!filters.user_id,
  });
  const setFilter = (name: (typeof FILTERS)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setOpen(null);
    router.replace(`?${next}`);
  };
  const columns = useMemo<Columns<Message>>(() => {
    return [
      timeColumn((m) => m.created_at),
      {
        id: "recipient",
        header: "Recipient",
        cell: ({ row }) => (
          <span className="block max-w-[14rem] truncate" title={row.original.recipient ?? undefined}>
            {row.original.recipient ?? "—"}
          </span>
        ),
      },
      {
        id: "template",
        header: "Template",
        cell: ({ row }) => (
          <span className="block max-w-[12rem] truncate">
            {row.original.template.name}
            <span className="ml-1 text-xs text-zinc-400">{row.original.channel === "sms" ? "SMS" : ""}</span>
          </span>
        ),
      },
      {
        id: "subject",
        header: "Subject",
        cell: ({ row }) => (
          <span className="block max-w-[16rem] truncate text-zinc-600" title={row.original.subject ?? undefined}>
            {row.original.subject ?? "—"}
          </span>
        ),
      },
      {
        id: "state",
        header: "State",
        cell: ({ row }) => (
          <span className="flex items-center gap-2">
            <MessageStateBadge state={row.original.state} />
            {row.original.reason && (
              <span
                className="max-w-[12rem] truncate text-xs text-zinc-500"
                title={reasonText(row.original.reason) ?? ""}
              >
                {row.original.reason}
              </span>
            )}
          </span>
        ),
      },
    ];
  }, []);
  const filtered = FILTERS.some((f) => filters[f]);
  const select = (
    name: (typeof FILTERS)[number],
    label: string,
    all: string,
    rows?: { id: string; name: string }[],
  ) => (
    <select
      aria-label={label}
      value={filters[name]}
      onChange={(e) => setFilter(name, e.target.value)}
      className={`${controlClass} max-w-[14rem]`}
    >
      <option value="">{all}</option>
      {rows?.map((r) => (
        <option key={r.id} value={r.id}>
          {r.name}
        </option>
      ))}
    </select>
  );
  return (
    <>
      <PageHeader
        title="Messages"
        description="Every e-mail and SMS Relay sent, queued, skipped or failed, with the reason. Newest first; open one to see what it said."
      />
      {focused && (
        <Card className="mb-4 p-4">
          <MessageDetail id={focused} />
        </Card>
      )}
      <div className="mb-4 flex flex-wrap items-start gap-3">
        {filters.user_id ? (
          <span className="flex items-center gap-1 rounded-md border border-zinc-300 bg-white py-1 pl-3 pr-1 text-sm">
            User: <strong className="max-w-[12rem] truncate">{user.data ? userLabel(user.data) : "…"}</strong>
            <Button
              size="sm"
              variant="ghost"
              aria-label="Clear the user filter"
              onClick={() => setFilter("user_id", "")}
            >
              ×
            </Button>
          </span>
        ) : (
          <div className="w-72">
            <UserPicker label="Filter by user" onPick={(u) => setFilter("user_id", u.id)} />
          </div>
        )}
        {select("template_id", "Template", "All templates", templates.data?.data)}
        {select("journey_id", "Journey", "All journeys", journeys.data?.data)}
        {select("broadcast_id", "Broadcast", "All broadcasts", broadcasts.data?.data)}
        {select(
          "state",
          "State",
          "All states",
          MESSAGE_STATES.map((s) => ({ id: s, name: s })),
        )}
        {select(
          "event",
          "What it did",
          "Anything",
          EVENTS.map((e) => ({ id: e, name: e.replace("_", " ") })),
        )}
      </div>
      <PagedTable
        q={q}
        pager={pager}
        what="messages"
        empty={
          <EmptyState title={filtered ? "No messages match these filters" : "No messages yet"}>
            {filtered ? (
              "Clear a filter to see more."
            ) : (
              <>
                Messages appear here as journeys and{" "}
                <Link className="text-indigo-600 hover:underline" href={`/projects/${project.id}/broadcasts`}>
                  broadcasts
                </Link>{" "}
                send them.
              </>
            )}
          </EmptyState>
        }
        columns={columns}
        caption="Messages, newest first"
        open={open}
        onOpen={setOpen}
        detail={(m) => <MessageDetail id={m.id} />}
        detailLabel={detailLabel}
      />
    </>
  );
}
