import { InlineCode } from "./inline-code";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  description?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};
export type Components = Record<string, Schema>;

function resolve(s: Schema, components: Components): { schema: Schema; name?: string } {
  if (s.$ref) {
    const name = s.$ref.split("/").pop()!;
    return { schema: components[name] ?? {}, name };
  }
  return { schema: s };
}

export function typeLabel(s: Schema, components: Components): string {
  const { schema, name } = resolve(s, components);
  if (name && schema.type === "object") return name;
  if (schema.anyOf ?? schema.oneOf)
    return (schema.anyOf ?? schema.oneOf)!.map((x) => typeLabel(x, components)).join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const t = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (t === "array" && schema.items) return `${typeLabel(schema.items, components)}[]`;
  if (t === "object" && !schema.properties) return "object";
  return [t ?? "any", schema.format].filter(Boolean).join(" · ");
}

function constraints(s: Schema): string[] {
  const out: string[] = [];
  if (s.minLength !== undefined) out.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`max length ${s.maxLength}`);
  if (s.minItems !== undefined) out.push(`min ${s.minItems} items`);
  if (s.maxItems !== undefined) out.push(`max ${s.maxItems} items`);
  if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  if (s.pattern) out.push(`pattern ${s.pattern}`);
  return out;
}

/** Renders an object schema as a field table, nesting object and array-of-object fields a few levels deep. */
export function SchemaFields({
  schema,
  components,
  depth = 0,
}: {
  schema: Schema;
  components: Components;
  depth?: number;
}) {
  let { schema: s } = resolve(schema, components);
  if (s.type === "array" && s.items) {
    s = resolve(s.items, components).schema;
  }
  const nonNull = (s.anyOf ?? []).find((x) => resolve(x, components).schema.type === "object");
  if (nonNull) s = resolve(nonNull, components).schema;
  if (!s.properties) return null;
  return (
    <ul className={depth ? "mt-2 border-l border-zinc-200 pl-4" : "divide-y divide-zinc-100"}>
      {Object.entries(s.properties).map(([name, prop]) => {
        const { schema: p } = resolve(prop, components);
        const child = p.type === "array" ? p.items && resolve(p.items, components).schema : p;
        return (
          <li key={name} className="py-2">
            <div className="flex flex-wrap items-baseline gap-x-2">
              <code className="font-mono text-sm font-semibold text-zinc-900">{name}</code>
              <span className="font-mono text-xs text-indigo-700">{typeLabel(prop, components)}</span>
              {s.required?.includes(name) ? <span className="text-xs font-medium text-rose-600">required</span> : null}
              {constraints(p).map((c) => (
                <span key={c} className="text-xs text-zinc-500">
                  {c}
                </span>
              ))}
            </div>
            {p.description ? (
              <p className="mt-0.5 text-sm text-zinc-600">
                <InlineCode text={p.description} />
              </p>
            ) : null}
            {depth < 3 && child?.properties ? (
              <SchemaFields schema={child} components={components} depth={depth + 1} />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
