"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { RowAction } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { formatDateTime } from "@/components/ui/format";
import { JsonView } from "@/components/ui/json-view";
import { Badge, ErrorBanner, LoadingRows } from "@/components/ui/states";
import type { EventTrace } from "@/components/console/api-types";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-3 py-1.5 text-sm">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-zinc-900">{children}</dd>
    </div>
  );
}

/** Where an event went: receipt, record, schema paths, list changes, journey entries, fan-out. */
export function EventTraceView({ projectId, eventId }: { projectId: string; eventId: string }) {
  const q = useQuery({
    queryKey: ["trace", projectId, eventId],
    queryFn: () => apiFetch<EventTrace>(adminPath(projectId, `/events/${eventId}/trace`)),
  });
  if (q.isPending) return <LoadingRows rows={4} label="Loading trace" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const t = q.data;
  const base = `/projects/${projectId}`;
  return (
    <div className="space-y-3">
      <dl className="divide-y divide-zinc-100">
        <Row label="Event">
          <span className="font-mono">{t.name}</span> {t.origin && <Badge>{t.origin}</Badge>}
        </Row>
        <Row label="Happened">{formatDateTime(t.occurred_at)}</Row>
        <Row label="Received">{formatDateTime(t.received_at)}</Row>
        {t.recorded_at && <Row label="Recorded">{formatDateTime(t.recorded_at)}</Row>}
        <Row label="Record">
          {t.record ? (
            <>
              <Link
                className="text-indigo-700 hover:underline"
                href={`${base}/${t.record.kind === "user" ? "users" : "organizations"}/${t.record.id}`}
              >
                {t.record.label ?? `${t.record.kind} (erased)`}
              </Link>{" "}
              {t.record.created ? (
                <Badge tone="indigo">created by this event</Badge>
              ) : (
                <span className="text-zinc-500">existing {t.record.kind}</span>
              )}
            </>
          ) : (
            <span className="text-zinc-500">none (a match event: each recipient got its own)</span>
          )}
        </Row>
        <Row label="Schema paths added">
          {t.schema_paths_added.length ? (
            <span className="font-mono text-xs">{t.schema_paths_added.join(", ")}</span>
          ) : (
            <span className="text-zinc-500">none new</span>
          )}
        </Row>
        <Row label="Lists changed">
          {t.lists.length ? (
            <ul>
              {t.lists.map((l) => (
                <li key={`${l.list_id}-${l.user_id}`}>
                  <Badge tone={l.change === "added" ? "green" : "zinc"}>{l.change}</Badge>{" "}
                  <Link className="text-indigo-700 hover:underline" href={`${base}/lists/${l.list_id}`}>
                    {l.list_name ?? "a deleted list"}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <span className="text-zinc-500">none</span>
          )}
        </Row>
        <Row label="Journeys entered">
          {t.journeys.length ? (
            <ul>
              {t.journeys.map((j) => (
                <li key={j.entry_id}>
                  <Link className="text-indigo-700 hover:underline" href={`${base}/journeys/${j.journey_id}`}>
                    {j.journey_name ?? "a deleted journey"}
                  </Link>{" "}
                  <span className="text-xs text-zinc-500">{formatDateTime(j.entered_at)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <span className="text-zinc-500">none</span>
          )}
        </Row>
        <Row label="Deliveries">
          {t.deliveries.length ? (
            <ul>
              {t.deliveries.map((d) => (
                <li key={d.id}>
                  <Badge tone={d.state === "delivered" ? "green" : d.state === "failed" ? "red" : "zinc"}>
                    {d.state}
                  </Badge>{" "}
                  <Link className="text-indigo-700 hover:underline" href={`${base}/destinations`}>
                    {d.attempts.length} attempt{d.attempts.length === 1 ? "" : "s"}
                  </Link>{" "}
                  <span className="text-xs text-zinc-500">
                    {d.finished_at
                      ? formatDateTime(d.finished_at)
                      : d.next_attempt_at
                        ? `next ${formatDateTime(d.next_attempt_at)}`
                        : ""}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <span className="text-zinc-500">none</span>
          )}
        </Row>
        {t.fanout && (
          <Row label="Fan-out">
            {t.fanout.state}: {t.fanout.delivered.toLocaleString()} delivered
            {t.fanout.planned !== null ? ` of ${t.fanout.planned.toLocaleString()} matched` : ""}
            {t.fanout.refusal ? ` (${t.fanout.refusal})` : ""}
          </Row>
        )}
      </dl>
      <JsonView value={t.data} />
    </div>
  );
}

/** Opens an event's trace in a dialog. */
export function TraceButton({
  projectId,
  eventId,
  label = "Trace",
}: {
  projectId: string;
  eventId: string;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <RowAction onClick={() => setOpen(true)} aria-label={`${label} event ${eventId}`}>
        {label}
      </RowAction>
      <Dialog open={open} onClose={() => setOpen(false)} title="Where this event went">
        {open && <EventTraceView projectId={projectId} eventId={eventId} />}
      </Dialog>
    </>
  );
}
