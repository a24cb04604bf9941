"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { formatRelative } from "@/components/ui/format";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import { MessageStateBadge, reasonText } from "./labels";
import type { Message } from "./types";

/** The link beside a profile's messages to the Messages page filtered to this user. */
export function AllMessagesLink({ projectId, userId }: { projectId: string; userId: string }) {
  return (
    <Link
      href={`/projects/${projectId}/messages?user_id=${userId}`}
      className="text-xs font-medium text-indigo-600 hover:underline"
    >
      All messages
    </Link>
  );
}

/** A user's ten latest messages on their profile: state, subject (or channel), and why one was skipped. */
export function UserMessagesPanel({ projectId, userId }: { projectId: string; userId: string }) {
  const q = useQuery({
    queryKey: ["messages", projectId, `user_id=${userId}&limit=10`],
    queryFn: () => apiFetch<Page<Message>>(adminPath(projectId, `/messages?user_id=${userId}&limit=10`)),
    refetchInterval: 10_000,
  });
  if (q.isPending) return <LoadingRows rows={2} label="Loading messages" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  if (q.data.data.length === 0) return <p className="text-sm text-zinc-500">No messages sent to this user yet.</p>;
  return (
    <ul className="divide-y divide-zinc-100" aria-label="Messages to this user">
      {q.data.data.map((m) => (
        <li key={m.id} className="flex items-start gap-3 py-2 text-sm">
          <MessageStateBadge state={m.state} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-zinc-900">{m.subject ?? (m.channel === "sms" ? "SMS" : "E-mail")}</p>
            {m.reason && <p className="text-xs text-zinc-500">{reasonText(m.reason)}</p>}
          </div>
          <span className="shrink-0 text-xs text-zinc-400">{formatRelative(m.created_at)}</span>
        </li>
      ))}
    </ul>
  );
}
