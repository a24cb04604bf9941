"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner, LoadingRows, PageHeader } from "@/components/ui/states";
import { MAX_RETENTION_DAYS, type ProjectSettings, projectSettingsPatch } from "@/lib/projects/settings-schemas";

type Values = { name: string; keep: "forever" | "days"; days: string };

const toValues = (s: ProjectSettings): Values => ({
  name: s.name,
  keep: s.event_retention_days === null ? "forever" : "days",
  days: s.event_retention_days === null ? "90" : String(s.event_retention_days),
});

/** The project's name and event retention; admins edit them, everyone else reads them. */
export function ProjectSettingsPage() {
  const project = useProject();
  const key = ["project-settings", project.id];
  const q = useQuery({ queryKey: key, queryFn: () => apiFetch<ProjectSettings>(adminPath(project.id, "")) });
  return (
    <>
      <PageHeader
        title="Project settings"
        description="The project's name, and how long its events are kept. Expired events are deleted by the worker within its RETENTION_INTERVAL (default one hour)."
      />
      {q.isPending ? (
        <LoadingRows label="Loading settings" />
      ) : q.isError ? (
        <ErrorBanner message={q.error.message} />
      ) : (
        <SettingsForm settings={q.data} editable={project.role === "admin"} />
      )}
    </>
  );
}

function SettingsForm({ settings, editable }: { settings: ProjectSettings; editable: boolean }) {
  const project = useProject();
  const qc = useQueryClient();
  const form = useForm<Values>({ defaultValues: toValues(settings) });
  const [saved, setSaved] = useState(false);
  const keep = form.watch("keep");
  useEffect(() => form.reset(toValues(settings)), [settings, form]);
  const save = useMutation({
    mutationFn: (body: unknown) => apiFetch<ProjectSettings>(adminPath(project.id, ""), { method: "PATCH", body }),
    onSuccess: (s) => {
      qc.setQueryData(["project-settings", project.id], s);
      setSaved(true);
    },
  });
  const onSubmit = (v: Values) => {
    setSaved(false);
    // The body is checked with the API's own schema before it is sent.
    const body = { name: v.name, event_retention_days: v.keep === "forever" ? null : Number(v.days) };
    const parsed = projectSettingsPatch.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        form.setError(issue.path[0] === "name" ? "name" : "days", { message: issue.message });
      return;
    }
    save.mutate(parsed.data);
  };
  const field =
    "rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-indigo-500/40 disabled:bg-zinc-50 disabled:text-zinc-500";
  return (
    <Card className="max-w-2xl p-6">
      <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-6" noValidate>
        {save.isError && <ErrorBanner message={save.error.message} />}
        <div>
          <label htmlFor="project-name" className="block text-sm font-medium text-zinc-800">
            Name
          </label>
          <input id="project-name" className={`mt-1 w-full ${field}`} disabled={!editable} {...form.register("name")} />
          {form.formState.errors.name && (
            <p className="mt-1 text-sm text-red-600">{form.formState.errors.name.message}</p>
          )}
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-zinc-800">Keep events</legend>
          <p className="mt-1 text-sm text-zinc-500">
            By each event's time: the timestamp the client sent, else when it arrived. A list rule cannot look back
            further than this (its within_days).
          </p>
          <div className="mt-3 space-y-2 text-sm text-zinc-800">
            <label className="flex items-center gap-2">
              <input type="radio" value="forever" disabled={!editable} {...form.register("keep")} /> Forever
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" value="days" disabled={!editable} {...form.register("keep")} /> For
              <input
                type="number"
                min={1}
                max={MAX_RETENTION_DAYS}
                aria-label="Days to keep events"
                className={`w-28 ${field}`}
                disabled={!editable || keep !== "days"}
                {...form.register("days")}
              />
              days
            </label>
          </div>
          {form.formState.errors.days && (
            <p className="mt-1 text-sm text-red-600">{form.formState.errors.days.message}</p>
          )}
        </fieldset>
        {editable ? (
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
            {saved && (
              <p role="status" className="text-sm text-emerald-700">
                Saved.
              </p>
            )}
          </div>
        ) : (
          <p className="text-sm text-zinc-500">Only a project admin can change these settings.</p>
        )}
      </form>
    </Card>
  );
}
