"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Destination } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { NameField, TextField } from "@/components/ui/dialog-form";
import { ErrorBanner } from "@/components/ui/states";

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
        <NameField id="dest-name" value={name} onChange={setName} placeholder="Warehouse" />
        <TextField
          id="dest-url"
          label="URL"
          required
          maxLength={2048}
          value={url}
          onChange={setUrl}
          placeholder="https://hooks.example.com/relay"
          mono
        />
        <TextField
          id="dest-events"
          label="Events"
          required
          value={events}
          onChange={setEvents}
          hint={
            <>
              Comma-separated names or patterns: <code>*</code>, <code>Order Completed</code>, <code>list.*</code>,{" "}
              <code>journey.*</code>, <code>scheduled.*</code>.
            </>
          }
        />
        <TextField
          id="dest-filter"
          label="Data filter (optional)"
          value={filter}
          onChange={setFilter}
          placeholder='{"plan": "pro"}'
          mono
          hint="Only events whose data contains these pairs."
        />
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
