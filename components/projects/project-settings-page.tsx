"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner, LoadingRows, PageHeader } from "@/components/ui/states";
import { MAX_RETENTION_DAYS, type ProjectSettings, projectSettingsPatch } from "@/lib/projects/settings-schemas";
import { DEFAULT_BOUNCE_POLICY } from "@/lib/suppressions/schemas";

type Values = { name: string; keep: "forever" | "days"; days: string; softBounces: string; within: string };

const toValues = (s: ProjectSettings): Values => ({
  name: s.name,
  keep: s.event_retention_days === null ? "forever" : "days",
  days: s.event_retention_days === null ? "90" : String(s.event_retention_days),
  softBounces: String((s.bounce_policy ?? DEFAULT_BOUNCE_POLICY).soft_bounces),
  within: (s.bounce_policy ?? DEFAULT_BOUNCE_POLICY).within,
});

/** The form field an API error path belongs to. */
const fieldOf = (path: PropertyKey[]): keyof Values =>
  path[0] === "name"
    ? "name"
    : path[0] === "bounce_policy"
      ? path[1] === "within"
        ? "within"
        : "softBounces"
      : "days";

/** The project's name, event retention and bounce policy; admins edit them, everyone else reads them. */
/** A field's refusal (the zod message, as the API would answer it). */
function Problem({ message }: { message?: string }) {
  return message ? <p className="mt-1 text-sm text-red-600">{message}</p> : null;
}

export function ProjectSettingsPage() {
  const project = useProject();
  const key = ["project-settings", project.id];
  const q = useQuery({ queryKey: key, queryFn: () => apiFetch<ProjectSettings>(adminPath(project.id, "")) });
  return (
    <>
      <PageHeader
        title="Project settings"
        description="The project's name, how long its events are kept, and when soft bounces suppress an address. Expired events are deleted by the worker within its RETENTION_INTERVAL (default one hour)."
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
    // The default policy is sent as null, so the project follows the default if it ever changes.
    const policy = { soft_bounces: Number(v.softBounces), within: v.within.trim() };
    const isDefault =
      policy.soft_bounces === DEFAULT_BOUNCE_POLICY.soft_bounces && policy.within === DEFAULT_BOUNCE_POLICY.within;
    const body = {
      name: v.name,
      event_retention_days: v.keep === "forever" ? null : Number(v.days),
      bounce_policy: isDefault ? null : policy,
    };
    const parsed = projectSettingsPatch.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) form.setError(fieldOf(issue.path), { message: issue.message });
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
          <Problem message={form.formState.errors.name?.message} />
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
          <Problem message={form.formState.errors.days?.message} />
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium text-zinc-800">Bounce policy</legend>
          <p className="mt-1 text-sm text-zinc-500">
            A hard bounce, a complaint or a carrier's refusal suppresses an address at once; soft bounces (a full
            mailbox, a server down) only after this many within the window.
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-zinc-800">
            Suppress after
            <input
              type="number"
              min={1}
              max={100}
              aria-label="Soft bounces that suppress"
              className={`w-20 ${field}`}
              disabled={!editable}
              {...form.register("softBounces")}
            />
            soft bounces within
            <input
              aria-label="Soft bounce window"
              className={`w-28 ${field}`}
              disabled={!editable}
              {...form.register("within")}
            />
          </div>
          <p className="mt-1 text-xs text-zinc-500">The window like "7 days" or "48 hours".</p>
          <Problem message={form.formState.errors.softBounces?.message ?? form.formState.errors.within?.message} />
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
