"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { FormProvider, useFieldArray, useForm } from "react-hook-form";
import { adminPath, apiFetch, ApiError } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { useEventSchema } from "@/components/rule-builder/use-event-schema";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner } from "@/components/ui/states";
import { FieldError } from "@/components/rule-builder/field-error";
import { RecordNameField } from "@/components/rule-builder/name-field";
import { journeyInput, journeyPatch, type JourneyView } from "@/lib/journeys/schemas";
import { EntranceEditor } from "./entrance-editor";

type Values = {
  name: string;
  allow_multiple_entries: boolean;
  allow_concurrent_runs: boolean;
  entrances: Record<string, unknown>[];
};

/** The journey as the form holds it: nulls of the API become absent fields. */
function toValues(j: JourneyView): Values {
  return {
    name: j.name,
    allow_multiple_entries: j.allow_multiple_entries,
    allow_concurrent_runs: j.allow_concurrent_runs,
    entrances: j.entrances.map((e) =>
      e.kind === "event"
        ? {
            id: e.id,
            kind: "event",
            event_name: e.event_name ?? "",
            ...(e.condition ? { condition: e.condition } : {}),
            ...(e.user_rule ? { user_rule: e.user_rule } : {}),
            data_key: e.data_key,
          }
        : {
            id: e.id,
            kind: "scheduled",
            schedule_id: e.schedule_id ?? "",
            schedule_offset_id: e.schedule_offset_id ?? "",
            data_key: e.data_key,
          },
    ),
  };
}

/** Creates a journey or edits its settings and entrances, validated by the API's own schemas. */
export function JourneyEditor({ journey }: { journey?: JourneyView }) {
  const project = useProject();
  const router = useRouter();
  const qc = useQueryClient();
  const schema = useEventSchema(project.id);
  const form = useForm<Values>({
    resolver: zodResolver(journey ? journeyPatch : journeyInput) as never,
    defaultValues: journey
      ? toValues(journey)
      : {
          name: "",
          allow_multiple_entries: false,
          allow_concurrent_runs: false,
          entrances: [{ kind: "event", event_name: "", data_key: "event" }],
        },
    mode: "onTouched",
  });
  const entrances = useFieldArray({ control: form.control, name: "entrances" });
  const save = useMutation({
    mutationFn: (v: Values) =>
      journey
        ? apiFetch<JourneyView>(adminPath(project.id, `/journeys/${journey.id}`), { method: "PATCH", body: v })
        : apiFetch<JourneyView>(adminPath(project.id, "/journeys"), { method: "POST", body: v }),
    onSuccess: (saved) => {
      qc.invalidateQueries({ queryKey: ["journeys", project.id] });
      qc.setQueryData(["journey", project.id, saved.id], saved);
      if (!journey) router.push(`/projects/${project.id}/journeys/${saved.id}`);
    },
    onError: (err) => {
      if (err instanceof ApiError)
        for (const e of (err.body as { errors?: { path: string; message: string }[] })?.errors ?? []) {
          form.setError(e.path.replace(/\[(\d+)\]/g, ".$1") as never, { message: e.message });
        }
    },
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={form.handleSubmit((v) => save.mutate(v))} className="space-y-4" noValidate>
        <Card className="space-y-4 p-5">
          <RecordNameField id="journey-name" placeholder="Trial ending" />
          <fieldset className="space-y-1 text-sm text-zinc-700">
            <legend className="text-sm font-medium text-zinc-800">Re-entry</legend>
            <label className="flex items-center gap-2">
              <input type="checkbox" {...form.register("allow_multiple_entries")} /> A user may enter again after an
              earlier entry
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" {...form.register("allow_concurrent_runs")} /> …even while an earlier entry is
              still active
            </label>
          </fieldset>
        </Card>
        <h2 className="text-sm font-semibold text-zinc-900">Entrances</h2>
        {entrances.fields.map((f, i) => (
          <EntranceEditor
            key={f.id}
            index={i}
            schema={schema}
            projectId={project.id}
            canRemove={entrances.fields.length > 1}
            onRemove={() => entrances.remove(i)}
          />
        ))}
        <FieldError name="entrances" />
        <datalist id="relay-event-names">
          {schema.names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="secondary"
            onClick={() => entrances.append({ kind: "event", event_name: "", data_key: "event" })}
            disabled={entrances.fields.length >= 20}
          >
            + Entrance
          </Button>
          <span className="flex-1" />
          {save.isSuccess && journey && (
            <span role="status" className="text-sm text-emerald-700">
              Saved.
            </span>
          )}
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : journey ? "Save journey" : "Create journey"}
          </Button>
        </div>
        {save.isError && <ErrorBanner message={save.error.message} />}
      </form>
    </FormProvider>
  );
}
