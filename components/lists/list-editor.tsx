"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { adminPath, apiFetch, ApiError } from "@/components/console/api";
import { patchRows } from "@/components/console/optimistic";
import { useProject } from "@/components/console/project-context";
import { RuleGroup, newEventRule } from "@/components/rule-builder/rule-group";
import { FieldError } from "@/components/rule-builder/field-error";
import { RecordNameField } from "@/components/rule-builder/name-field";
import { useEventSchema } from "@/components/rule-builder/use-event-schema";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner } from "@/components/ui/states";
import { listInput, type ListView } from "@/lib/lists/schemas";
import { ListPreviewCard } from "./list-preview";

type Values = { name: string; kind: "dynamic" | "static"; rules?: unknown };

/**
 * Creates a list, or edits an existing one's name and rules. Validated in the browser by the API's own
 * schema (listInput), so a form error reads like the API's; the server still checks everything.
 */
export function ListEditor({ list }: { list?: ListView }) {
  const project = useProject();
  const router = useRouter();
  const qc = useQueryClient();
  const schema = useEventSchema(project.id);
  const form = useForm<Values>({
    // A static list sends no rules: the rules kept in the form (in case the admin switches back) must not
    // fail the API schema's "a static list has no rules".
    resolver: ((values: Values, ctx: unknown, opts: never) =>
      (zodResolver(listInput) as never as (v: unknown, c: unknown, o: never) => unknown)(
        values.kind === "static" ? { name: values.name, kind: "static" } : values,
        ctx,
        opts,
      )) as never,
    defaultValues: list
      ? { name: list.name, kind: list.kind, rules: list.rules ?? undefined }
      : { name: "", kind: "dynamic", rules: { all: [newEventRule()] } },
    mode: "onTouched",
  });
  const kind = useWatch({ control: form.control, name: "kind" });
  const rules = useWatch({ control: form.control, name: "rules" });
  const save = useMutation({
    mutationFn: (v: Values) =>
      list
        ? apiFetch<ListView>(adminPath(project.id, `/lists/${list.id}`), {
            method: "PATCH",
            body: { name: v.name, ...(list.kind === "dynamic" ? { rules: v.rules } : {}) },
          })
        : apiFetch<ListView>(adminPath(project.id, "/lists"), {
            method: "POST",
            body: v.kind === "static" ? { name: v.name, kind: "static" } : v,
          }),
    // Editing is optimistic: the header and the lists index show the new name and rules at once, and a
    // refusal puts the saved ones back (the form keeps what was typed, with the server's errors on it).
    onMutate: async (v) => {
      if (!list) return;
      const keys = [
        ["list", project.id, list.id],
        ["lists", project.id],
      ];
      await Promise.all(keys.map((queryKey) => qc.cancelQueries({ queryKey })));
      const snapshot = keys.flatMap((queryKey) => qc.getQueriesData({ queryKey }));
      const edit = (r: ListView) => ({
        ...r,
        name: v.name,
        ...(list.kind === "dynamic" ? { rules: v.rules as ListView["rules"] } : {}),
      });
      qc.setQueryData<ListView>(keys[0]!, (old) => (old ? edit(old) : old));
      qc.setQueriesData({ queryKey: keys[1]! }, (old: unknown) =>
        patchRows<ListView>(old, (r) => r.id === list.id, edit),
      );
      return { snapshot };
    },
    onSuccess: (saved) => {
      qc.invalidateQueries({ queryKey: ["lists", project.id] });
      qc.setQueryData(["list", project.id, saved.id], saved);
      if (!list) router.push(`/projects/${project.id}/lists/${saved.id}`);
    },
    onError: (err, _v, ctx) => {
      for (const [key, data] of ctx?.snapshot ?? []) qc.setQueryData(key, data);
      // Field errors from the server land on the fields they name.
      if (err instanceof ApiError)
        for (const e of (err.body as { errors?: { path: string; message: string }[] })?.errors ?? []) {
          form.setError(e.path.replace(/\[(\d+)\]/g, ".$1") as never, { message: e.message });
        }
    },
  });
  return (
    <FormProvider {...form}>
      <form
        onSubmit={form.handleSubmit((v) => save.mutate(kind === "static" ? { name: v.name, kind: "static" } : v))}
        className="grid gap-6 lg:grid-cols-[1fr_20rem]"
        noValidate
      >
        <div className="space-y-4">
          <Card className="space-y-4 p-5">
            <RecordNameField id="list-name" placeholder="Active buyers" />
            {!list && (
              <div role="radiogroup" aria-label="Kind" className="flex gap-4 text-sm">
                <label className="flex items-center gap-2">
                  <input type="radio" value="dynamic" {...form.register("kind")} /> Dynamic: follows rules
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" value="static" {...form.register("kind")} /> Static: members added by hand
                </label>
              </div>
            )}
          </Card>
          {kind === "dynamic" && <RuleGroup path="rules" schema={schema} />}
          <FieldError name="rules" />
          {save.isError && <ErrorBanner message={save.error.message} />}
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : list ? "Save list" : "Create list"}
            </Button>
            {save.isSuccess && list && (
              <span role="status" className="text-sm text-emerald-700">
                Saved: members are being re-evaluated.
              </span>
            )}
          </div>
        </div>
        {kind === "dynamic" && (
          <div className="lg:sticky lg:top-8 lg:self-start">
            <ListPreviewCard projectId={project.id} rules={rules} />
          </div>
        )}
      </form>
    </FormProvider>
  );
}
