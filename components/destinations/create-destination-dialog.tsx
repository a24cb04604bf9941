"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Destination } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorBanner, inputClass } from "@/components/ui/states";

export function CreateDestinationDialog({
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
