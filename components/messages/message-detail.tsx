"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { RenderedMessage } from "@/components/templates/template-preview";
import { formatDateTime } from "@/components/ui/format";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";
import { DeliveryBadge, MessageStateBadge, reasonText } from "./labels";
import { MessageEvents } from "./message-events";
import type { MessageDetail as Detail } from "./types";

/** One message in full: why it was skipped or failed, its provider id, and what it said. */
export function MessageDetail({ id }: { id: string }) {
  const project = useProject();
  const q = useQuery({
    queryKey: ["message", project.id, id],
    queryFn: () => apiFetch<Detail>(adminPath(project.id, `/messages/${id}`)),
  });
  if (q.isPending) return <LoadingRows rows={2} label="Loading the message" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const m = q.data;
  const why = reasonText(m.reason);
  const facts: [string, React.ReactNode][] = [
    ["State", <MessageStateBadge key="s" state={m.state} />],
    [
      "Delivery",
      m.delivery ? <DeliveryBadge key="d" state={m.delivery.state} type={m.delivery.type} /> : "no report yet",
    ],
    ["Recipient", m.recipient ?? "—"],
    ["Attempts", m.attempts],
    [
      "Provider message id",
      m.provider_message_id ? (
        <code key="p" className="font-mono text-xs">
          {m.provider_message_id}
        </code>
      ) : (
        "—"
      ),
    ],
    ["Created", formatDateTime(m.created_at)],
    ["Variant", m.locale ?? "default"],
    [
      m.state === "queued" ? "Due" : "Finished",
      formatDateTime(m.state === "queued" ? m.next_attempt_at : m.finished_at),
    ],
  ];
  return (
    <section aria-label={`Message ${m.id}`} className="max-w-4xl space-y-4 whitespace-normal">
      {why && (
        <div
          className={`rounded-md border px-3 py-2 text-sm ${
            m.state === "failed"
              ? "border-red-200 bg-red-50 text-red-800"
              : "border-amber-200 bg-amber-50 text-amber-900"
          }`}
        >
          <span className="font-medium">
            {m.state === "failed" ? "Failed: " : m.state === "skipped" ? "Skipped: " : "Waiting: "}
          </span>
          {why}
          {m.reason && why !== m.reason && <code className="ml-1 font-mono text-xs opacity-70">({m.reason})</code>}
        </div>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs uppercase tracking-wide text-zinc-400">{k}</dt>
            <dd className="mt-0.5 break-all text-sm text-zinc-800">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="flex flex-wrap gap-3 text-xs">
        {m.user_id && (
          <Link
            className="font-medium text-indigo-600 hover:underline"
            href={`/projects/${project.id}/users/${m.user_id}`}
          >
            The user
          </Link>
        )}
        <Link
          className="font-medium text-indigo-600 hover:underline"
          href={`/projects/${project.id}/templates/${m.template.id}`}
        >
          Template {m.template.name}
        </Link>
        {m.cause.journey_id && (
          <Link
            className="font-medium text-indigo-600 hover:underline"
            href={`/projects/${project.id}/journeys/${m.cause.journey_id}`}
          >
            The journey{m.cause.journey_step_key ? ` (step ${m.cause.journey_step_key})` : ""}
          </Link>
        )}
      </p>
      <MessageEvents events={m.events} />
      {m.content ? (
        <>
          <p className="text-xs text-zinc-500">
            Rendered now from the template: a template changed since shows its new text
            {m.subject !== null && m.subject !== m.content.subject ? `; the subject sent was “${m.subject}”` : ""}.
          </p>
          <RenderedMessage r={m.content} />
        </>
      ) : (
        <p className="text-sm text-zinc-500">The template no longer renders for this message.</p>
      )}
    </section>
  );
}
