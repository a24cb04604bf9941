"use client";
import { useEffect, useState } from "react";
import { Controller, FormProvider, useForm, useFormContext } from "react-hook-form";
import type { Schema } from "@/components/rule-builder/rule-group";
import { Button } from "@/components/ui/button";
import { controlClass } from "@/components/ui/states";
import type { Step } from "@/lib/journeys/step-schema";
import { exitFields } from "./draft";
import { BranchFields, DelayFields, SplitFields, UpdateFields, WaitFields } from "./kind-fields";
import { SendFields } from "./send-fields";

/** What the form holds: the step itself, but a branch's rule always a group and an update's data as rows. */
type Values = Record<string, unknown>;

function toForm(s: Step): Values {
  const v: Values = structuredClone(s) as unknown as Values;
  if (s.kind === "branch" && !("all" in s.rule) && !("any" in s.rule)) v.rule = { all: [s.rule] };
  if (s.kind === "update")
    v.fields = Object.entries(s.data).map(([name, value]) => ({
      name,
      value: typeof value === "string" ? value : JSON.stringify(value),
    }));
  return v;
}

/** A value typed in an update row: JSON when it reads as JSON (`42`, `true`, `["a"]`), else the text. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function fromForm(kind: Step["kind"], v: Values): Step {
  const out = structuredClone(v) as Values;
  if (kind === "update") {
    const rows = (out.fields as { name: string; value: string }[] | undefined) ?? [];
    out.data = Object.fromEntries(rows.filter((r) => r.name).map((r) => [r.name, parseValue(r.value ?? "")]));
    delete out.fields;
  }
  for (const f of ["next", "else_next", "timeout_next"]) if (out[f] === "") delete out[f];
  if (kind === "wait" && !out.timeout) delete out.timeout_next;
  return out as unknown as Step;
}

/** Where each way out leads, as selects (the keyboard's way to draw the canvas's arrows). */
function Targets({ step, keys }: { step: Step; keys: string[] }) {
  const fields = exitFields(step);
  if (!fields.length) return null;
  return (
    <div className="space-y-2 border-t border-zinc-100 pt-3">
      <p className="text-xs font-medium uppercase tracking-wide text-zinc-500">Goes to</p>
      {fields.map(({ field, label }) => (
        <div key={field} className="flex items-center gap-2 text-sm text-zinc-700">
          <span className="w-28 shrink-0">{label ? `${label}` : "next"}</span>
          <TargetSelect field={field} keys={keys.filter((k) => k !== step.key)} label={`${label || "next"} goes to`} />
        </div>
      ))}
    </div>
  );
}

function TargetSelect({ field, keys, label }: { field: string; keys: string[]; label: string }) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={field.replace(/\[(\d+)\]/g, ".$1")}
      render={({ field: f }) => (
        <select
          aria-label={label}
          value={(f.value as string | undefined) ?? ""}
          onChange={(e) => f.onChange(e.target.value)}
          className={`${controlClass} flex-1`}
        >
          <option value="">the entry exits</option>
          {keys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * The side panel of the selected step: its key, the fields of its kind, and where it leads. Every edit
 * goes straight to the draft (`onChange`); the canvas's own edits re-open the panel (its `key`), so the
 * two never hold different steps. The API's refusals for the step show at the top and under their field.
 */
export function StepPanel({
  step,
  keys,
  schema,
  errors,
  onChange,
  onRename,
  onRemove,
}: {
  step: Step;
  keys: string[];
  schema: Schema;
  errors: { field: string; message: string }[];
  onChange: (s: Step) => void;
  onRename: (to: string) => void;
  onRemove: () => void;
}) {
  const form = useForm<Values>({ defaultValues: toForm(step) });
  const [key, setKey] = useState(step.key);
  useEffect(() => {
    const sub = form.watch((v) => onChange(fromForm(step.kind, v as Values)));
    return () => sub.unsubscribe();
  }, [form, onChange, step.kind]);
  useEffect(() => {
    for (const e of errors) if (e.field) form.setError(e.field.replace(/\[(\d+)\]/g, ".$1"), { message: e.message });
  }, [errors, form]);
  const commitKey = () => {
    if (key !== step.key) onRename(key);
  };
  const watched = fromForm(step.kind, form.watch());
  return (
    <FormProvider {...form}>
      <section className="space-y-3" aria-label={`Step ${step.key}`}>
        <div className="flex items-center gap-2">
          <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-[10px] uppercase tracking-wide text-zinc-600">
            {step.kind}
          </span>
          <input
            aria-label="Step key"
            value={key}
            maxLength={40}
            onChange={(e) => setKey(e.target.value.toLowerCase())}
            onBlur={commitKey}
            onKeyDown={(e) => e.key === "Enter" && commitKey()}
            className={`${controlClass} flex-1 font-mono text-xs`}
          />
          <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove step ${step.key}`}>
            Remove
          </Button>
        </div>
        {errors.length > 0 && (
          <ul className="space-y-0.5 rounded-md bg-red-50 p-2 text-xs text-red-700" aria-label="Problems">
            {errors.map((e) => (
              <li key={`${e.field}:${e.message}`}>
                {e.field && <code className="font-mono">{e.field}: </code>}
                {e.message}
              </li>
            ))}
          </ul>
        )}
        {step.kind === "delay" && <DelayFields />}
        {step.kind === "wait" && <WaitFields schema={schema} />}
        {step.kind === "branch" && <BranchFields schema={schema} />}
        {step.kind === "split" && <SplitFields />}
        {step.kind === "send" && <SendFields />}
        {step.kind === "update" && <UpdateFields />}
        {step.kind === "exit" && <p className="text-sm text-zinc-500">The entry leaves the journey here.</p>}
        <Targets step={watched} keys={keys} />
      </section>
    </FormProvider>
  );
}
