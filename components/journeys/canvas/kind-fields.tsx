"use client";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Controller, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { adminPath, apiFetch } from "@/components/console/api";
import type { List } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { ConditionRow } from "@/components/rule-builder/condition-row";
import { FieldError } from "@/components/rule-builder/field-error";
import { RuleGroup, type Schema } from "@/components/rule-builder/rule-group";
import { Button, RowAction } from "@/components/ui/button";
import { controlClass } from "@/components/ui/states";
import { WEEKDAYS } from "@/lib/journeys/step-schema";
import { DurationInput } from "./duration-input";

/*
 * The side panel's fields for each kind of step, bound to the panel's form (step-panel.tsx) by the API's
 * own field names, so FieldError shows the API's refusal under the field it names.
 */

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1 text-sm text-zinc-700">
      <span className="block text-xs font-medium text-zinc-600">{label}</span>
      {children}
    </div>
  );
}

/**
 * A labelled select between the ways a step can be set up, each way one field of the step: picking one
 * clears the others' fields and gives the picked one its starting value.
 */
function ModeRow<M extends string>(props: {
  label: string;
  aria: string;
  value: M;
  modes: Record<M, { text: string; start: () => unknown }>;
}) {
  const { setValue } = useFormContext();
  const modes = Object.entries(props.modes) as [M, { text: string; start: () => unknown }][];
  return (
    <Row label={props.label}>
      <select
        aria-label={props.aria}
        value={props.value}
        className={controlClass}
        onChange={(e) => {
          for (const [mode, way] of modes) setValue(mode as string, mode === e.target.value ? way.start() : undefined);
        }}
      >
        {modes.map(([mode, way]) => (
          <option key={mode} value={mode}>
            {way.text}
          </option>
        ))}
      </select>
    </Row>
  );
}

/**
 * A labelled text input bound to the step's field `name`; an `optional` field left empty is sent as
 * absent rather than as "".
 */
function TextRow(props: {
  label: string;
  aria: string;
  name: string;
  placeholder: string;
  mono?: boolean;
  list?: string;
  optional?: boolean;
}) {
  const { register } = useFormContext();
  const opts = props.optional ? { setValueAs: (v: string) => v || undefined } : {};
  return (
    <Row label={props.label}>
      <input
        aria-label={props.aria}
        list={props.list}
        placeholder={props.placeholder}
        className={`${controlClass} w-full${props.mono ? " font-mono text-xs" : ""}`}
        {...register(props.name, opts)}
      />
      <FieldError name={props.name} />
    </Row>
  );
}

function Duration({ name, label }: { name: string; label: string }) {
  const { control } = useFormContext();
  return (
    <>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <DurationInput label={label} value={(field.value as string) ?? ""} onChange={field.onChange} />
        )}
      />
      <FieldError name={name} />
    </>
  );
}

export function DelayFields() {
  const { control, setValue, register } = useFormContext();
  const until = useWatch({ control, name: "until" }) as { weekdays?: string[] } | undefined;
  const mode = until ? "until" : "duration";
  return (
    <div className="space-y-3">
      <ModeRow
        label="Wait"
        aria="Delay mode"
        value={mode}
        modes={{
          duration: { text: "for a while", start: () => "1 days" },
          until: { text: "until a time of day", start: () => ({ time: "09:00", timezone: "user" }) },
        }}
      />
      {mode === "duration" ? (
        <Row label="Duration">
          <Duration name="duration" label="Duration" />
        </Row>
      ) : (
        <>
          <Row label="Time of day (24-hour)">
            <input type="time" aria-label="Time of day" className={controlClass} {...register("until.time")} />
            <FieldError name="until.time" />
          </Row>
          <Row label="On (none: every day)">
            <div className="flex flex-wrap gap-2">
              {WEEKDAYS.map((d) => (
                <label key={d} className="flex items-center gap-1 text-xs">
                  <input
                    type="checkbox"
                    checked={until?.weekdays?.includes(d) ?? false}
                    onChange={(e) => {
                      const now = new Set(until?.weekdays ?? []);
                      if (e.target.checked) now.add(d);
                      else now.delete(d);
                      const list = WEEKDAYS.filter((w) => now.has(w));
                      setValue("until.weekdays", list.length ? list : undefined);
                    }}
                  />
                  {d}
                </label>
              ))}
            </div>
          </Row>
          <TextRow label="Time zone" aria="Time zone" name="until.timezone" placeholder="user, or Europe/Vienna" />
        </>
      )}
    </div>
  );
}

export function WaitFields({ schema }: { schema: Schema }) {
  const project = useProject();
  const { control, setValue, getValues, register } = useFormContext();
  const event = useWatch({ control, name: "event" }) as { name?: string; condition?: unknown[] } | undefined;
  const timeout = useWatch({ control, name: "timeout" }) as string | undefined;
  const lists = useQuery({
    queryKey: ["lists", project.id, "all"],
    queryFn: () => apiFetch<{ data: List[] }>(adminPath(project.id, "/lists?limit=500")),
    staleTime: 30_000,
  });
  const mode = event ? "event" : "list";
  const props = schema.propsOf(event?.name);
  const conditions = event?.condition ?? [];
  return (
    <div className="space-y-3">
      <ModeRow
        label="Wait for"
        aria="Wait for"
        value={mode}
        modes={{
          event: { text: "an event", start: () => ({ name: "" }) },
          list: { text: "a list membership", start: () => ({ list_id: lists.data?.data[0]?.id ?? "", in: true }) },
        }}
      />
      {mode === "event" ? (
        <>
          <TextRow
            label="Event"
            aria="Event name"
            name="event.name"
            list="relay-event-names"
            placeholder="Order Completed"
          />
          <Row label="Where (all must hold)">
            {conditions.map((_, i) => (
              <ConditionRow
                key={i}
                prefix={`event.condition.${i}`}
                props={props}
                label={`Condition ${i + 1}`}
                onRemove={() => {
                  const rest = (getValues("event.condition") as unknown[]).filter((__, j) => j !== i);
                  setValue("event.condition", rest.length ? rest : undefined);
                }}
              />
            ))}
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                setValue("event.condition", [...conditions, { path: props[0]?.path ?? "", op: "eq", value: "" }])
              }
            >
              + condition
            </Button>
          </Row>
          <TextRow
            label="Same as the entering event's (a data key, optional)"
            aria="Same as key"
            name="event.same_as"
            placeholder="cart_id"
            mono
            optional
          />
        </>
      ) : (
        <Row label="List">
          <div className="flex gap-2">
            <select aria-label="List" className={`${controlClass} flex-1`} {...register("list.list_id")}>
              <option value="">choose…</option>
              {lists.data?.data.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
            <Controller
              control={control}
              name="list.in"
              render={({ field }) => (
                <select
                  aria-label="In or out"
                  className={controlClass}
                  value={field.value === false ? "out" : "in"}
                  onChange={(e) => field.onChange(e.target.value === "in")}
                >
                  <option value="in">until in it</option>
                  <option value="out">until out of it</option>
                </select>
              )}
            />
          </div>
          <FieldError name="list.list_id" />
        </Row>
      )}
      <Row label="Timeout">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            aria-label="With a timeout"
            checked={!!timeout}
            onChange={(e) => setValue("timeout", e.target.checked ? "3 days" : undefined)}
          />
          give up after
        </label>
        {timeout && <Duration name="timeout" label="Timeout" />}
      </Row>
    </div>
  );
}

export function BranchFields({ schema }: { schema: Schema }) {
  return (
    <div className="space-y-2">
      <p className="text-xs text-zinc-600">Goes to “true” when the user matches, else to “false”.</p>
      <RuleGroup path="rule" schema={schema} />
    </div>
  );
}

/**
 * The rows of one array field of the step: each row's inputs, a Remove while more than `min` are left,
 * and an add button while fewer than `max` are there.
 */
function EditableRows(props: {
  name: string;
  noun: string;
  blank: Record<string, unknown>;
  min?: number;
  max?: number;
  row: (i: number) => ReactNode;
}) {
  const { control } = useFormContext();
  const rows = useFieldArray({ control, name: props.name });
  return (
    <>
      {rows.fields.map((f, i) => (
        <div key={f.id} className="flex items-center gap-2 text-sm">
          {props.row(i)}
          {rows.fields.length > (props.min ?? 0) && (
            <RowAction aria-label={`Remove ${props.noun} ${i + 1}`} onClick={() => rows.remove(i)}>
              Remove
            </RowAction>
          )}
        </div>
      ))}
      {rows.fields.length < (props.max ?? Number.POSITIVE_INFINITY) && (
        <Button variant="ghost" size="sm" onClick={() => rows.append(props.blank)}>
          + {props.noun}
        </Button>
      )}
    </>
  );
}

export function SplitFields() {
  const { register } = useFormContext();
  return (
    <div className="space-y-2">
      <p className="text-xs text-zinc-600">Each entry takes one path, chosen by weight.</p>
      <EditableRows
        name="paths"
        noun="path"
        min={2}
        max={10}
        blank={{ weight: 50, next: "" }}
        row={(j) => (
          <>
            <span className="w-14 text-zinc-600">Path {j + 1}</span>
            <input
              type="number"
              min={1}
              max={10_000}
              aria-label={`Path ${j + 1} weight`}
              className={`${controlClass} w-24`}
              {...register(`paths.${j}.weight`, { valueAsNumber: true })}
            />
          </>
        )}
      />
    </div>
  );
}

export function UpdateFields() {
  const { register } = useFormContext();
  return (
    <div className="space-y-2">
      <p className="text-xs text-zinc-600">
        Merged into the user&apos;s data. A value that reads as JSON (42, true, [&quot;a&quot;]) is stored as such.
      </p>
      <EditableRows
        name="fields"
        noun="field"
        blank={{ name: "", value: "" }}
        row={(i) => (
          <>
            <input
              aria-label={`Field ${i + 1} name`}
              placeholder="plan"
              className={`${controlClass} w-32 font-mono text-xs`}
              {...register(`fields.${i}.name`)}
            />
            <input
              aria-label={`Field ${i + 1} value`}
              placeholder="pro"
              className={`${controlClass} min-w-0 flex-1`}
              {...register(`fields.${i}.value`)}
            />
          </>
        )}
      />
      <FieldError name="data" />
    </div>
  );
}
