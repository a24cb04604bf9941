"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Delivery, Destination, Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button, RowAction } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import {
  Badge,
  Banner,
  Card,
  EmptyState,
  ErrorBanner,
  PageHeader,
  TableHead,
  tableClass,
  tdClass,
} from "@/components/ui/states";
import { QueryStatus } from "@/components/ui/query-state";
import { roleAtLeast } from "@/lib/access/roles";
import { CreateDestinationDialog } from "@/components/destinations/create-destination-dialog";
import { DeliveryLog } from "@/components/destinations/delivery-log";
import { SecretDialog } from "@/components/destinations/secret-dialog";

const pct = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 1000) / 10}%`);

export function DestinationsPage() {
  const project = useProject();
  const qc = useQueryClient();
  const key = ["destinations", project.id];
  const canWrite = roleAtLeast(project.role, "editor");
  const q = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Page<Destination>>(adminPath(project.id, "/destinations?limit=500")),
    refetchInterval: 10_000,
  });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [rotating, setRotating] = useState<Destination | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: "green" | "red"; text: string } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const toggle = useMutation({
    mutationFn: (d: Destination) =>
      apiFetch(adminPath(project.id, `/destinations/${d.id}`), { method: "PATCH", body: { enabled: !d.enabled } }),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (d: Destination) =>
      apiFetch<Delivery>(adminPath(project.id, `/destinations/${d.id}/test`), { method: "POST" }),
    onSuccess: (delivery, d) => {
      const a = delivery.attempts.at(-1);
      setNotice(
        delivery.state === "delivered"
          ? { tone: "green", text: `Test ping to ${d.name} answered ${a?.status} in ${a?.latency_ms} ms.` }
          : { tone: "red", text: `Test ping to ${d.name} failed: ${a?.error ?? "no answer"}.` },
      );
      setLogOf(d.id);
      refresh();
    },
  });
  const newButton = canWrite ? <Button onClick={() => setCreating(true)}>Add destination</Button> : null;
  const selected = q.data?.data.find((d) => d.id === logOf) ?? null;
  return (
    <>
      <PageHeader
        title="Destinations"
        description="Relay POSTs events to these URLs as signed Standard Webhooks messages, at least once, retrying with backoff. Verify the signature with the destination's secret."
        actions={newButton}
      />
      {notice && (
        <Banner tone={notice.tone === "green" ? "success" : "error"} className="mb-4">
          {notice.text}
        </Banner>
      )}
      <QueryStatus q={q} what="destinations" />
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No destinations" action={newButton}>
          Add a webhook URL to receive events, list changes and journey entries as they happen.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <Card className="overflow-x-auto">
          <table className={tableClass}>
            <TableHead
              columns={["Destination", "Events", "Status", "Success (24 h)", "Last error", "Backlog"]}
              actions
            />
            <tbody className="divide-y divide-zinc-100">
              {q.data.data.map((d) => (
                <tr key={d.id} className={d.id === logOf ? "bg-indigo-50/40" : undefined}>
                  <td className={tdClass}>
                    <div className="font-medium text-zinc-900">{d.name}</div>
                    <code className="block max-w-xs truncate font-mono text-xs text-zinc-500" title={d.url}>
                      {d.url}
                    </code>
                  </td>
                  <td className={`${tdClass} max-w-[14rem]`}>
                    <div className="flex flex-wrap gap-1">
                      {d.events.map((e) => (
                        <Badge key={e}>{e}</Badge>
                      ))}
                      {d.filter && <Badge tone="indigo">filtered</Badge>}
                    </div>
                  </td>
                  <td className={`${tdClass} min-w-[11rem]`}>
                    {d.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Off</Badge>}
                    {d.disabled_reason && <p className="mt-1 max-w-xs text-xs text-red-700">{d.disabled_reason}</p>}
                    {d.secret_rotating_until && (
                      <p className="mt-1 text-xs text-zinc-500">
                        Rotating: the old secret signs too until {formatDateTime(d.secret_rotating_until)}
                      </p>
                    )}
                  </td>
                  <td className={tdClass}>
                    {pct(d.health.success_rate_24h)}
                    <span className="block text-xs text-zinc-400">{d.health.attempts_24h} attempts</span>
                  </td>
                  <td className={`${tdClass} max-w-[16rem] text-xs`}>
                    {d.health.last_error ? (
                      <>
                        <span className="text-red-700">{d.health.last_error}</span>
                        <span className="block text-zinc-400">{formatRelative(d.health.last_error_at)}</span>
                      </>
                    ) : (
                      <span className="text-zinc-400">None</span>
                    )}
                  </td>
                  <td className={tdClass}>{d.health.backlog}</td>
                  <td className={`${tdClass} text-right`}>
                    <div className="flex flex-wrap justify-end gap-1">
                      <RowAction
                        onClick={() => setLogOf(d.id === logOf ? null : d.id)}
                        aria-label={`Delivery log of ${d.name}`}
                      >
                        Log
                      </RowAction>
                      {canWrite && (
                        <>
                          <RowAction
                            disabled={test.isPending}
                            onClick={() => test.mutate(d)}
                            aria-label={`Send a test ping to ${d.name}`}
                          >
                            Test
                          </RowAction>
                          <RowAction onClick={() => setRotating(d)} aria-label={`Rotate the secret of ${d.name}`}>
                            Rotate secret
                          </RowAction>
                          <RowAction
                            disabled={toggle.isPending}
                            onClick={() => toggle.mutate(d)}
                            aria-label={`${d.enabled ? "Disable" : "Enable"} ${d.name}`}
                          >
                            {d.enabled ? "Disable" : "Enable"}
                          </RowAction>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {test.isError && <ErrorBanner className="mt-4" message={test.error.message} />}
      {toggle.isError && <ErrorBanner className="mt-4" message={toggle.error.message} />}
      {selected && <DeliveryLog destination={selected} canWrite={canWrite} />}
      <CreateDestinationDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(d) => {
          refresh();
          setCreating(false);
          setSecret({ title: `Signing secret of ${d.name}`, value: d.secret });
        }}
      />
      <ConfirmDialog
        open={rotating !== null}
        onClose={() => setRotating(null)}
        title="Rotate signing secret?"
        body={
          <>
            A new secret signs every message to <strong>{rotating?.name}</strong>. The current one keeps signing too for
            24 hours (both signatures are sent), so your receiver can switch without losing a message.
          </>
        }
        confirmLabel="Rotate secret"
        onConfirm={async () => {
          const r = await apiFetch<{ secret: string }>(
            adminPath(project.id, `/destinations/${rotating!.id}/rotate-secret`),
            { method: "POST" },
          );
          setSecret({ title: `New signing secret of ${rotating!.name}`, value: r.secret });
          refresh();
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
