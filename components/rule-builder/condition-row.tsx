"use client";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { RowAction } from "@/components/ui/button";
import { controlClass } from "@/components/ui/states";
import { FieldError } from "./field-error";
import { mainKind, needsValue, OP_LABELS, opsFor, parseValue, showValue, type Op, type ValueKind } from "./operators";
import type { SchemaProp } from "./use-event-schema";

/**
 * One `{path, op, value}` row. The path picks from `props` (discovered types) or is typed freely; the
 * operators and the value input follow the path's type. `prefix` is the form path of the condition.
 */
export function ConditionRow({
  prefix,
  props,
  onRemove,
  label,
  freePath,
  fixedPaths,
}: {
  prefix: string;
  props: SchemaProp[];
  onRemove: () => void;
  label: string;
  freePath?: boolean;
  fixedPaths?: { path: string; kind: ValueKind }[];
}) {
  const { control, setValue } = useFormContext();
  const path = useWatch({ control, name: `${prefix}.path` }) as string | undefined;
  const op = (useWatch({ control, name: `${prefix}.op` }) as Op | undefined) ?? "eq";
  const known =
    fixedPaths?.find((p) => p.path === path)?.kind ??
    mainKind(props.find((p) => p.path === (path ?? "").replace(/^data\./, ""))?.types);
  const ops = opsFor(known);
  const listId = `${prefix.replace(/[^a-z0-9]/gi, "-")}-paths`;
  return (
    <div className="flex flex-wrap items-start gap-2" role="group" aria-label={label}>
      <div>
        <Controller
          control={control}
          name={`${prefix}.path`}
          render={({ field }) => (
            <input
              {...field}
              value={field.value ?? ""}
              list={listId}
              aria-label={`${label}: property`}
              placeholder={freePath ? "data.plan" : "property"}
              className={`${controlClass} w-40 font-mono text-xs`}
            />
          )}
        />
        <datalist id={listId}>
          {fixedPaths?.map((p) => (
            <option key={p.path} value={p.path}>
              {p.kind}
            </option>
          ))}
          {props.map((p) => (
            <option key={p.path} value={freePath ? `data.${p.path}` : p.path}>
              {p.types.join(" | ")}
            </option>
          ))}
        </datalist>
        <FieldError name={`${prefix}.path`} />
      </div>
      <Controller
        control={control}
        name={`${prefix}.op`}
        render={({ field }) => (
          <select
            {...field}
            value={field.value ?? "eq"}
            aria-label={`${label}: operator`}
            className={controlClass}
            onChange={(e) => {
              field.onChange(e.target.value);
              if (!needsValue(e.target.value as Op)) setValue(`${prefix}.value`, undefined);
            }}
          >
            {(ops.includes(op) ? ops : [op, ...ops]).map((o) => (
              <option key={o} value={o}>
                {OP_LABELS[o]}
              </option>
            ))}
          </select>
        )}
      />
      {needsValue(op) && (
        <div>
          <Controller
            control={control}
            name={`${prefix}.value`}
            render={({ field }) =>
              known === "boolean" ? (
                <select
                  aria-label={`${label}: value`}
                  className={controlClass}
                  value={showValue(field.value)}
                  onChange={(e) => field.onChange(parseValue(e.target.value, "boolean"))}
                >
                  <option value="">choose…</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : (
                <input
                  aria-label={`${label}: value`}
                  type={known === "number" ? "number" : "text"}
                  step="any"
                  placeholder={known === "date" ? "2026-01-31" : known === "array" ? '["tag"]' : "value"}
                  className={`${controlClass} w-28`}
                  value={showValue(field.value)}
                  onChange={(e) => field.onChange(parseValue(e.target.value, known))}
                />
              )
            }
          />
          <FieldError name={`${prefix}.value`} />
        </div>
      )}
      {known && <span className="self-center text-xs text-zinc-400">{known}</span>}
      <RowAction className="self-center" aria-label={`Remove ${label}`} onClick={onRemove}>
        Remove
      </RowAction>
    </div>
  );
}
