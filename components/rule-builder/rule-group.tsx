"use client";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import type { Rule } from "@/lib/lists/rule-schema";
import { Button, RowAction } from "@/components/ui/button";
import { controlClass } from "@/components/ui/states";
import { ConditionRow } from "./condition-row";
import { FieldError } from "./field-error";
import type { ValueKind } from "./operators";
import type { SchemaProp } from "./use-event-schema";

export type Schema = { names: string[]; propsOf: (name: string | undefined) => SchemaProp[] };

const USER_FIELDS: { path: string; kind: ValueKind }[] = [
  { path: "email", kind: "string" },
  { path: "phone", kind: "string" },
  { path: "timezone", kind: "string" },
  { path: "locale", kind: "string" },
  { path: "created_at", kind: "date" },
];

export const newEventRule = (): Rule => ({ event: { name: "", scope: "user", at_least: 1 } });
export const newPropertyRule = (): Rule => ({ property: { path: "", op: "eq", value: "" } });

/** An event rule: name with autocomplete from the discovered schema, how often, how recently, and conditions on its properties. */
function EventRuleEditor({ path, schema, label }: { path: string; schema: Schema; label: string }) {
  const { control, setValue, getValues } = useFormContext();
  const name = useWatch({ control, name: `${path}.event.name` }) as string | undefined;
  const where = (useWatch({ control, name: `${path}.event.where` }) as unknown[] | undefined) ?? [];
  const props = schema.propsOf(name);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-start gap-2 text-sm text-zinc-600">
        <span className="self-center">did</span>
        <div>
          <Controller
            control={control}
            name={`${path}.event.name`}
            render={({ field }) => (
              <input
                {...field}
                value={field.value ?? ""}
                list="relay-event-names"
                aria-label={`${label}: event name`}
                placeholder="event name"
                className={`${controlClass} w-52`}
              />
            )}
          />
          <FieldError name={`${path}.event.name`} />
        </div>
        <span className="self-center">at least</span>
        <div>
          <Controller
            control={control}
            name={`${path}.event.at_least`}
            render={({ field }) => (
              <input
                type="number"
                min={1}
                aria-label={`${label}: at least`}
                className={`${controlClass} w-20`}
                value={field.value ?? ""}
                onChange={(e) => field.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
              />
            )}
          />
          <FieldError name={`${path}.event.at_least`} />
        </div>
        <span className="self-center">times, within the last</span>
        <div>
          <Controller
            control={control}
            name={`${path}.event.within_days`}
            render={({ field }) => (
              <input
                type="number"
                min={1}
                placeholder="any"
                aria-label={`${label}: within days`}
                className={`${controlClass} w-20`}
                value={field.value ?? ""}
                onChange={(e) => field.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
              />
            )}
          />
          <FieldError name={`${path}.event.within_days`} />
        </div>
        <span className="self-center">days, by</span>
        <Controller
          control={control}
          name={`${path}.event.scope`}
          render={({ field }) => (
            <select {...field} value={field.value ?? "user"} aria-label={`${label}: scope`} className={controlClass}>
              <option value="user">the user</option>
              <option value="organization">one of their organizations</option>
            </select>
          )}
        />
      </div>
      {where.map((_, i) => (
        <div key={i} className="ml-6">
          <ConditionRow
            prefix={`${path}.event.where.${i}`}
            props={props}
            label={`${label} where ${i + 1}`}
            onRemove={() => {
              const next = (getValues(`${path}.event.where`) as unknown[]).filter((__, j) => j !== i);
              setValue(`${path}.event.where`, next.length ? next : undefined, { shouldValidate: true });
            }}
          />
        </div>
      ))}
      <Button
        variant="ghost"
        size="sm"
        className="ml-6"
        onClick={() =>
          setValue(`${path}.event.where`, [
            ...((getValues(`${path}.event.where`) as unknown[]) ?? []),
            { path: props[0]?.path ?? "", op: "eq", value: "" },
          ])
        }
      >
        + where {props.length ? `(${props.length} known properties)` : ""}
      </Button>
    </div>
  );
}

/**
 * A group of rules joined by all (and) or any (or), recursively: event rules, user property rules and
 * nested groups (one level deeper at most, which is what people read). Edits go through the form state.
 */
export function RuleGroup({
  path,
  schema,
  depth = 0,
  onRemove,
}: {
  path: string;
  schema: Schema;
  depth?: number;
  onRemove?: () => void;
}) {
  const { control, setValue, getValues } = useFormContext();
  const value = (useWatch({ control, name: path }) ?? { all: [] }) as { all?: Rule[]; any?: Rule[] };
  const op: "all" | "any" = "any" in value ? "any" : "all";
  const items = (value[op] ?? []) as Rule[];
  const setItems = (next: Rule[]) => setValue(path, { [op]: next }, { shouldValidate: true, shouldDirty: true });
  const current = () => ((getValues(path) ?? { all: [] }) as Record<string, Rule[]>)[op] ?? [];
  const userProps = schema
    .propsOf("user.created")
    .filter((p) => p.path.startsWith("data."))
    .map((p) => ({ ...p, path: p.path.slice(5) }));
  const groupLabel = depth === 0 ? "Rules" : `Group ${path.split(".").pop()}`;
  return (
    <fieldset
      className={`space-y-3 rounded-lg border p-3 ${depth ? "border-dashed border-zinc-300 bg-zinc-50/60" : "border-zinc-200 bg-white"}`}
    >
      <legend className="flex items-center gap-2 px-1 text-sm">
        <span className="text-zinc-600">Match</span>
        <select
          aria-label={`${groupLabel}: match`}
          value={op}
          onChange={(e) => setValue(path, { [e.target.value]: current() }, { shouldValidate: true, shouldDirty: true })}
          className={`${controlClass} py-1`}
        >
          <option value="all">all of</option>
          <option value="any">any of</option>
        </select>
        {onRemove && (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            Remove group
          </Button>
        )}
      </legend>
      {items.length === 0 && <p className="text-sm text-zinc-500">No rules yet: add one below.</p>}
      <FieldError name={`${path}.${op}`} />
      <ul className="space-y-3">
        {items.map((item, i) => {
          const at = `${path}.${op}.${i}`;
          const remove = () => setItems(current().filter((_, j) => j !== i));
          const label = `Rule ${depth ? `${path.split(".").pop()}.` : ""}${i + 1}`;
          return (
            <li key={i} className="rounded-md border border-zinc-100 bg-white p-2">
              {"event" in item ? (
                <div className="flex items-start gap-2">
                  <div className="flex-1">
                    <EventRuleEditor path={at} schema={schema} label={label} />
                  </div>
                  <RowAction aria-label={`Remove ${label}`} onClick={remove}>
                    Remove
                  </RowAction>
                </div>
              ) : "property" in item ? (
                <div className="flex items-start gap-2">
                  <span className="mt-2 text-sm text-zinc-600">user</span>
                  {/* Full width, so its Remove stays on the rule's line as the event rule's does. */}
                  <div className="min-w-0 flex-1">
                    <ConditionRow
                      prefix={`${at}.property`}
                      props={userProps}
                      fixedPaths={USER_FIELDS}
                      freePath
                      label={label}
                      onRemove={remove}
                    />
                  </div>
                </div>
              ) : (
                <RuleGroup path={at} schema={schema} depth={depth + 1} onRemove={remove} />
              )}
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => setItems([...current(), newEventRule()])}>
          + Event rule
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setItems([...current(), newPropertyRule()])}>
          + User property rule
        </Button>
        {depth === 0 && (
          <Button variant="secondary" size="sm" onClick={() => setItems([...current(), { any: [newEventRule()] }])}>
            + Group
          </Button>
        )}
      </div>
      {depth === 0 && (
        <datalist id="relay-event-names">
          {schema.names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      )}
    </fieldset>
  );
}
