"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Controller, useFieldArray, useForm, useWatch } from "react-hook-form";
import { adminPath, apiFetch } from "@/components/console/api";
import type { SubscriptionGroup } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { ChannelSelect } from "@/components/messages/channel-select";
import type { Template, TemplateContent } from "@/components/messages/types";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/dialog-form";
import { Banner, Card, ErrorBanner, controlClass, inputClass } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import { bodyOf, fieldErrors, toValues, type Values } from "./template-form-values";
import { CodeEditor } from "./code-editor";
import { MjmlPart } from "./mjml-part";
import { TemplatePreview } from "./template-preview";

/**
 * Creates or edits a template: name, channel, its subscription group (or transactional), and the Liquid
 * of each locale's variant on its own tab. Saving compiles on the server; a syntax error comes back with
 * its line and column and is shown under the field (and its tab marked). Beside it: preview and test send.
 * An MJML part opens as code or in the visual block editor (mjml-part.tsx); the visual view takes the
 * page's width, with the preview below it.
 */
export function TemplateEditor({ template }: { template?: Template }) {
  const project = useProject();
  const router = useRouter();
  const qc = useQueryClient();
  const canEdit = roleAtLeast(project.role, "editor");
  const form = useForm<Values>({ defaultValues: toValues(template) });
  const variants = useFieldArray({ control: form.control, name: "variants" });
  const channel = useWatch({ control: form.control, name: "channel" });
  const format = useWatch({ control: form.control, name: "format" });
  const transactional = useWatch({ control: form.control, name: "transactional" });
  const watched = useWatch({ control: form.control, name: "variants" });
  const [tab, setTab] = useState(0);
  const [newLocale, setNewLocale] = useState("");
  const [saved, setSaved] = useState(false);
  const [visual, setVisual] = useState(false);
  // Set by the visual editor while it is open: ends a text edit in progress and writes it to the form.
  const flushVisual = useRef<(() => Promise<void>) | null>(null);
  const groups = useQuery({
    queryKey: ["admin", project.id, "/subscription-groups"],
    queryFn: () => apiFetch<{ data: SubscriptionGroup[] }>(adminPath(project.id, "/subscription-groups")),
  });
  const save = useMutation({
    mutationFn: (v: Values) =>
      template
        ? apiFetch<Template>(adminPath(project.id, `/templates/${template.id}`), {
            method: "PATCH",
            body: bodyOf(v, true),
          })
        : apiFetch<Template>(adminPath(project.id, "/templates"), { method: "POST", body: bodyOf(v, false) }),
    onSuccess: (t) => {
      qc.setQueryData(["template", project.id, t.id], t);
      qc.invalidateQueries({ queryKey: ["templates", project.id] });
      setSaved(true);
      if (!template) router.push(`/projects/${project.id}/templates/${t.id}`);
      else form.reset(toValues(t));
    },
  });
  // A restored version (or any change saved elsewhere) replaces what the form shows, unless it holds edits.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the template's version, not its object.
  useEffect(() => {
    if (template && !form.formState.isDirty) form.reset(toValues(template));
  }, [template?.updated_at]);
  const errors = fieldErrors(save.error);
  const pathOf = (i: number, field: keyof TemplateContent) =>
    i === 0 ? field : `locales.${watched[i]?.locale ?? ""}.${field}`;
  const tabHasError = (i: number) =>
    (["subject", "text", "html"] as const).some((f) => errors[pathOf(i, f)] !== undefined);
  const current = Math.min(tab, variants.fields.length - 1);
  const addLocale = () => {
    const code = newLocale.trim();
    if (!code || watched.some((v) => v.locale === code)) return;
    const base = watched[0]!;
    variants.append({ locale: code, subject: base.subject, text: base.text, html: base.html });
    setTab(variants.fields.length);
    setNewLocale("");
  };
  const liquidField = (field: keyof TemplateContent, label: string, rows: number) => {
    const id = `tpl-${field}-${current}`;
    const err = errors[pathOf(current, field)];
    if (field === "subject")
      return (
        <div>
          <label htmlFor={id} className="block text-sm font-medium text-zinc-700">
            {label}
          </label>
          <textarea
            key={variants.fields[current]!.id + field}
            id={id}
            rows={rows}
            spellCheck={false}
            readOnly={!canEdit}
            aria-invalid={err ? true : undefined}
            className={`${inputClass} mt-1 resize-none font-mono text-xs leading-5${err ? " border-red-400" : ""}`}
            {...form.register(`variants.${current}.${field}`)}
          />
          {err && <p className="mt-1 text-xs text-red-700">{err}</p>}
        </div>
      );
    if (field === "html" && format === "mjml")
      return (
        <>
          <Controller
            key={variants.fields[current]!.id + field}
            control={form.control}
            name={`variants.${current}.${field}`}
            render={({ field: f }) => (
              <MjmlPart
                value={f.value ?? ""}
                onChange={f.onChange}
                label={label}
                readOnly={!canEdit}
                error={err}
                minHeight={`${rows * 1.25}rem`}
                visual={visual}
                setVisual={setVisual}
                flush={flushVisual}
              />
            )}
          />
          {err && <p className="mt-1 text-xs text-red-700">{err}</p>}
        </>
      );
    // The text and HTML parts in the code editor (CodeMirror: Liquid over text or HTML).
    return (
      <div>
        <span className="block text-sm font-medium text-zinc-700">{label}</span>
        <div className="mt-1">
          <Controller
            key={variants.fields[current]!.id + field}
            control={form.control}
            name={`variants.${current}.${field}`}
            render={({ field: f }) => (
              <CodeEditor
                value={f.value ?? ""}
                onChange={f.onChange}
                language={field === "html" ? format : "text"}
                label={label}
                readOnly={!canEdit}
                invalid={!!err}
                minHeight={`${rows * 1.25}rem`}
              />
            )}
          />
        </div>
        {err && <p className="mt-1 text-xs text-red-700">{err}</p>}
      </div>
    );
  };
  return (
    <div
      className={`grid items-start gap-6 ${visual && format === "mjml" ? "" : "xl:grid-cols-[minmax(0,1fr)_minmax(0,42rem)]"}`}
    >
      <Card className="p-5">
        <form
          className="space-y-5"
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            await flushVisual.current?.();
            await form.handleSubmit((v) => {
              setSaved(false);
              save.mutate(v);
            })();
          }}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="tpl-name" className="block text-sm font-medium text-zinc-700">
                Name
              </label>
              <input
                id="tpl-name"
                maxLength={100}
                readOnly={!canEdit}
                className={`${inputClass} mt-1`}
                {...form.register("name", { required: "A template needs a name." })}
              />
              {form.formState.errors.name && (
                <p className="mt-1 text-xs text-red-700">{form.formState.errors.name.message}</p>
              )}
            </div>
            <ChannelSelect
              id="tpl-channel"
              disabled={!!template || !canEdit}
              className={`${inputClass} mt-1 disabled:bg-zinc-50`}
              {...form.register("channel")}
            />
            <Field id="tpl-tags" label="Tags">
              <input
                id="tpl-tags"
                readOnly={!canEdit}
                placeholder="onboarding, newsletter"
                className={`${inputClass} mt-1`}
                {...form.register("tags")}
              />
            </Field>
            {channel === "email" && (
              <Field id="tpl-format" label="Format">
                <select
                  id="tpl-format"
                  disabled={!canEdit}
                  className={`${inputClass} mt-1 disabled:bg-zinc-50`}
                  {...form.register("format")}
                >
                  <option value="html">HTML (styles inlined)</option>
                  <option value="mjml">MJML (responsive, compiled at save)</option>
                </select>
              </Field>
            )}
            <div>
              <label htmlFor="tpl-group" className="block text-sm font-medium text-zinc-700">
                Subscription group
              </label>
              {/* Registered only once its options are there: a select registered earlier shows (and would
                  save) "Choose a group…", since the browser cannot select an option it does not have yet. */}
              {groups.data ? (
                <select
                  id="tpl-group"
                  disabled={transactional || !canEdit}
                  className={`${inputClass} mt-1 disabled:bg-zinc-50 disabled:text-zinc-400`}
                  {...form.register("group")}
                >
                  <option value="">{transactional ? "None (transactional)" : "Choose a group…"}</option>
                  {groups.data.data
                    .filter((g) => g.channel === channel)
                    .map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name}
                      </option>
                    ))}
                </select>
              ) : (
                <select
                  id="tpl-group"
                  disabled
                  className={`${inputClass} mt-1 disabled:bg-zinc-50 disabled:text-zinc-400`}
                >
                  <option>{groups.isError ? "Groups could not be loaded" : "Loading groups…"}</option>
                </select>
              )}
              {errors.subscription_group && <p className="mt-1 text-xs text-red-700">{errors.subscription_group}</p>}
            </div>
            <label className="flex items-start gap-2 self-end pb-2 text-sm text-zinc-700">
              <input type="checkbox" className="mt-0.5" disabled={!canEdit} {...form.register("transactional")} />
              <span>
                Transactional
                <span className="block text-xs text-zinc-500">
                  Receipts, sign-in codes: no group, exempt from caps and quiet hours.
                </span>
              </span>
            </label>
          </div>
          <div>
            <div
              className="flex flex-wrap items-end gap-1 border-b border-zinc-200"
              role="tablist"
              aria-label="Locales"
            >
              {variants.fields.map((f, i) => (
                <button
                  key={f.id}
                  type="button"
                  role="tab"
                  aria-selected={i === current}
                  onClick={() => setTab(i)}
                  className={`-mb-px rounded-t-md border px-3 py-1.5 text-sm ${
                    i === current
                      ? "border-zinc-200 border-b-white bg-white font-medium text-zinc-900"
                      : "border-transparent text-zinc-500 hover:text-zinc-800"
                  }`}
                >
                  {i === 0 ? "Default" : watched[i]?.locale}
                  {tabHasError(i) && (
                    <span className="ml-1.5 inline-block h-1.5 w-1.5 rounded-full bg-red-500">
                      <span className="sr-only">(has errors)</span>
                    </span>
                  )}
                </button>
              ))}
              {canEdit && (
                <span className="ml-auto flex items-center gap-1 pb-1">
                  <input
                    aria-label="New locale"
                    placeholder="de, pt-BR…"
                    value={newLocale}
                    maxLength={35}
                    onChange={(e) => setNewLocale(e.target.value)}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") {
                        e.preventDefault();
                        addLocale();
                      }
                    }}
                    className={`${controlClass} w-28 py-1 text-xs`}
                  />
                  <Button size="sm" variant="secondary" onClick={addLocale} disabled={!newLocale.trim()}>
                    Add locale
                  </Button>
                </span>
              )}
            </div>
            <div role="tabpanel" className="space-y-4 pt-4">
              <p className="text-xs text-zinc-500">
                {current === 0
                  ? "Sent when no variant matches the user's locale (de-AT falls back to de, then to this)."
                  : `Sent to users whose locale is ${watched[current]?.locale} or starts with it; a part left empty is the default's.`}
                {current > 0 && canEdit && (
                  <button
                    type="button"
                    className="ml-2 font-medium text-red-700 hover:underline"
                    onClick={() => {
                      variants.remove(current);
                      setTab(0);
                    }}
                  >
                    Remove this locale
                  </button>
                )}
              </p>
              {channel === "email" && liquidField("subject", "Subject", 1)}
              {liquidField("text", channel === "email" ? "Text" : "Message", channel === "email" ? 8 : 4)}
              {channel === "email" && liquidField("html", format === "mjml" ? "MJML" : "HTML", 14)}
            </div>
          </div>
          {save.isError && <ErrorBanner message={save.error.message} />}
          {canEdit ? (
            <div className="flex items-center gap-3">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : template ? "Save" : "Create template"}
              </Button>
              {saved && !form.formState.isDirty && (
                <Banner tone="success" className="py-1">
                  Saved and compiled.
                </Banner>
              )}
            </div>
          ) : (
            <p className="text-sm text-zinc-500">Only an editor or admin can change templates.</p>
          )}
        </form>
      </Card>
      <TemplatePreview template={template} dirty={form.formState.isDirty} />
    </div>
  );
}
