"use client";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Delivery, Destination, Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { formatDateTime, formatRelative } from "@/components/ui/format";
import {
  Badge,
  Banner,
  Card,
  EmptyState,
  ErrorBanner,
  inputClass,
  LoadingRows,
  PageHeader,
  tableClass,
  tdClass,
  thClass,
} from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";

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
      {q.isPending && <LoadingRows label="Loading destinations" />}
      {q.isError && <ErrorBanner message={q.error.message} />}
      {q.data && q.data.data.length === 0 && (
        <EmptyState title="No destinations" action={newButton}>
          Add a webhook URL to receive events, list changes and journey entries as they happen.
        </EmptyState>
      )}
      {q.data && q.data.data.length > 0 && (
        <Card className="overflow-x-auto">
          <table className={tableClass}>
            <thead className="bg-zinc-50">
              <tr>
                <th className={thClass}>Destination</th>
                <th className={thClass}>Events</th>
                <th className={thClass}>Status</th>
                <th className={thClass}>Success (24 h)</th>
                <th className={thClass}>Last error</th>
                <th className={thClass}>Backlog</th>
                <th className={thClass}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
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
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setLogOf(d.id === logOf ? null : d.id)}
                        aria-label={`Delivery log of ${d.name}`}
                      >
                        Log
                      </Button>
                      {canWrite && (
                        <>
                          <Button
                            variant="ghost"
                            size="sm"
                            disabled={test.isPending}
                            onClick={() => test.mutate(d)}
                            aria-label={`Send a test ping to ${d.name}`}
                          >
                            Test
                          </Button>
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => setRotating(d)}
                            aria-label={`Rotate the secret of ${d.name}`}
                          >
                            Rotate secret
                          </Button>
                          <Button
                            variant="ghost"
                            size="sm"
                            disabled={toggle.isPending}
                            onClick={() => toggle.mutate(d)}
                            aria-label={`${d.enabled ? "Disable" : "Enable"} ${d.name}`}
                          >
                            {d.enabled ? "Disable" : "Enable"}
                          </Button>
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

function SecretDialog({ secret, onClose }: { secret: { title: string; value: string } | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog open={secret !== null} onClose={close} title={secret?.title ?? ""}>
      <div className="space-y-4">
        <p className="text-sm text-zinc-600">
          This is the only time the secret is shown. Give it to your receiver to verify each message&apos;s{" "}
          <code className="font-mono text-xs">webhook-signature</code>.
        </p>
        <div className="flex items-center gap-2">
          <input
            readOnly
            aria-label="Signing secret"
            value={secret?.value ?? ""}
            onFocus={(e) => e.target.select()}
            className={`${inputClass} font-mono text-xs`}
          />
          <Button
            variant="secondary"
            onClick={async () => {
              await navigator.clipboard?.writeText(secret?.value ?? "").catch(() => {});
              setCopied(true);
            }}
          >
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
        <div className="flex justify-end">
          <Button onClick={close}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}

function CreateDestinationDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (d: Destination & { secret: string }) => void;
}) {
  const project = useProject();
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState("*");
  const [filter, setFilter] = useState("");
  const [filterError, setFilterError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<Destination & { secret: string }>(adminPath(project.id, "/destinations"), { method: "POST", body }),
    onSuccess: (d) => {
      setName("");
      setUrl("");
      setEvents("*");
      setFilter("");
      onCreated(d);
    },
  });
  const close = () => {
    create.reset();
    setFilterError(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title="Add destination">
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          let parsed: unknown;
          if (filter.trim()) {
            try {
              parsed = JSON.parse(filter);
            } catch {
              setFilterError('The filter must be a JSON object, like {"plan": "pro"}.');
              return;
            }
          }
          setFilterError(null);
          create.mutate({
            name,
            url,
            events: events
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
            ...(parsed !== undefined && { filter: parsed }),
          });
        }}
      >
        <div>
          <label htmlFor="dest-name" className="block text-sm font-medium text-zinc-700">
            Name
          </label>
          <input
            id="dest-name"
            required
            maxLength={100}
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Warehouse"
            className={`${inputClass} mt-1`}
          />
        </div>
        <div>
          <label htmlFor="dest-url" className="block text-sm font-medium text-zinc-700">
            URL
          </label>
          <input
            id="dest-url"
            required
            maxLength={2048}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://hooks.example.com/relay"
            className={`${inputClass} mt-1 font-mono text-xs`}
          />
        </div>
        <div>
          <label htmlFor="dest-events" className="block text-sm font-medium text-zinc-700">
            Events
          </label>
          <input
            id="dest-events"
            required
            value={events}
            onChange={(e) => setEvents(e.target.value)}
            className={`${inputClass} mt-1`}
          />
          <p className="mt-1 text-xs text-zinc-500">
            Comma-separated names or patterns: <code>*</code>, <code>Order Completed</code>, <code>list.*</code>,{" "}
            <code>journey.*</code>, <code>scheduled.*</code>.
          </p>
        </div>
        <div>
          <label htmlFor="dest-filter" className="block text-sm font-medium text-zinc-700">
            Data filter (optional)
          </label>
          <input
            id="dest-filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder='{"plan": "pro"}'
            className={`${inputClass} mt-1 font-mono text-xs`}
          />
          <p className="mt-1 text-xs text-zinc-500">Only events whose data contains these pairs.</p>
        </div>
        {filterError && <ErrorBanner message={filterError} />}
        {create.isError && <ErrorBanner message={create.error.message} />}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || !name.trim() || !url.trim()}>
            {create.isPending ? "Adding…" : "Add destination"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const STATES = ["", "pending", "delivered", "failed"] as const;

function DeliveryLog({ destination, canWrite }: { destination: Destination; canWrite: boolean }) {
  const project = useProject();
  const qc = useQueryClient();
  const [state, setState] = useState<(typeof STATES)[number]>("");
  const key = ["deliveries", project.id, destination.id, state];
  const q = useInfiniteQuery({
    queryKey: key,
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      apiFetch<Page<Delivery>>(
        adminPath(
          project.id,
          `/destinations/${destination.id}/deliveries?limit=25${state ? `&state=${state}` : ""}${pageParam ? `&cursor=${pageParam}` : ""}`,
        ),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 5_000,
  });
  const retry = useMutation({
    mutationFn: (d: Delivery) =>
      apiFetch(adminPath(project.id, `/destinations/${destination.id}/deliveries/${d.id}/retry`), { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["deliveries", project.id, destination.id] }),
  });
  const rows = q.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-label={`Delivery log of ${destination.name}`} className="mt-8">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
        <h2 className="text-base font-semibold text-zinc-900">Delivery log: {destination.name}</h2>
        <label className="text-sm text-zinc-600">
          State{" "}
          <select
            value={state}
            onChange={(e) => setState(e.target.value as (typeof STATES)[number])}
            className="ml-1 rounded-md border border-zinc-300 px-2 py-1 text-sm"
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s || "all"}
              </option>
            ))}
          </select>
        </label>
      </div>
      {q.isPending && <LoadingRows label="Loading deliveries" />}
      {q.isError && <ErrorBanner message={q.error.message} />}
      {retry.isError && <ErrorBanner message={retry.error.message} />}
      {q.data && rows.length === 0 && (
        <EmptyState title="No deliveries">
          Messages appear here when an event this destination takes arrives.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <Card className="overflow-x-auto">
          <table className={tableClass}>
            <thead className="bg-zinc-50">
              <tr>
                <th className={thClass}>Event</th>
                <th className={thClass}>State</th>
                <th className={thClass}>Attempts</th>
                <th className={thClass}>Next attempt</th>
                <th className={thClass}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {rows.map((d) => (
                <tr key={d.id}>
                  <td className={tdClass}>
                    <div className="font-medium text-zinc-900">{d.event_name}</div>
                    <code className="text-xs text-zinc-400">{d.webhook_id}</code>
                    <span className="block text-xs text-zinc-500">{formatDateTime(d.created_at)}</span>
                  </td>
                  <td className={tdClass}>
                    <Badge tone={d.state === "delivered" ? "green" : d.state === "failed" ? "red" : "amber"}>
                      {d.state}
                    </Badge>
                  </td>
                  <td className={`${tdClass} text-xs`}>
                    {d.attempts.length === 0 && <span className="text-zinc-400">Not attempted yet</span>}
                    <ol className="space-y-1">
                      {d.attempts.map((a) => (
                        <li key={a.attempted_at}>
                          <span className={a.status && a.status < 300 ? "text-emerald-700" : "text-red-700"}>
                            {a.status ?? "no answer"}
                          </span>{" "}
                          <span className="text-zinc-500">
                            {a.latency_ms} ms · {formatDateTime(a.attempted_at)}
                          </span>
                          {(a.error || a.response) && (
                            <code className="block max-w-md truncate text-zinc-500" title={a.response ?? a.error ?? ""}>
                              {a.error ?? a.response}
                            </code>
                          )}
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td className={`${tdClass} text-xs text-zinc-500`}>
                    {d.next_attempt_at ? formatRelative(d.next_attempt_at) : "—"}
                  </td>
                  <td className={`${tdClass} text-right`}>
                    {canWrite && (
                      <Button
                        variant="secondary"
                        size="sm"
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(d)}
                        aria-label={`Retry ${d.event_name} ${d.webhook_id}`}
                      >
                        Retry
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {q.hasNextPage && (
        <div className="mt-3 flex justify-center">
          <Button variant="secondary" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
    </section>
  );
}
