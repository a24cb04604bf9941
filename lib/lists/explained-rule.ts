import { z } from "zod";
import type { Condition, Rule } from "./rule-schema";

/*
 * The shape of an evaluated rule tree, as the explain endpoints return it and the console draws it. No
 * database code here: the console imports these types.
 */

const whereReading = z
  .object({
    path: z.string(),
    op: z.string(),
    value: z.unknown().optional().meta({ description: "The value compared with (absent for exists / not_exists)." }),
    seen: z.unknown().meta({ description: "The value at the path in this event (null when missing)." }),
    missing: z.boolean(),
    passed: z.boolean(),
  })
  .meta({ id: "ExplainedWhere" });

const sample = z
  .object({
    event_id: z.uuid(),
    occurred_at: z.iso.datetime(),
    organization_id: z.uuid().nullable(),
    where: z.array(whereReading),
    counted: z.boolean().meta({ description: "Every `where` clause held: this event counts toward the rule." }),
  })
  .meta({ id: "ExplainedEventSample" });

export const explainedNode: z.ZodType<ExplainedNode> = z
  .object({
    path: z.string().meta({ description: "The node's place in the tree (`$`, `$.all[0]`, `$.all[1].any[0]`…)." }),
    kind: z.enum(["all", "any", "event", "property"]),
    result: z.boolean(),
    rule: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "For a leaf: the event or property rule as stored." }),
    children: z.array(z.unknown()).optional().meta({ description: "For a group: its rules, each explained alike." }),
    observed: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "For a property rule: `value` found at the path (null when `missing`), its `type`, and the `comparison` made. For an event rule: `found` events (counting stops at `needed`), `found_ignoring_where`, the window's `window_from`/`window_to` (null without `within_days`), and the latest `samples` with each `where` clause's value seen and verdict.",
    }),
  })
  .meta({ id: "ExplainedRuleNode" }) as never;

export type ExplainedWhere = z.infer<typeof whereReading>;
export type ExplainedSample = z.infer<typeof sample>;

export type PropertyObservation = { value: unknown; missing: boolean; type: string; comparison: string };
export type EventObservation = {
  found: number;
  needed: number;
  found_ignoring_where: number | null;
  window_from: string | null;
  window_to: string | null;
  samples: ExplainedSample[];
};

export type ExplainedNode =
  | { path: string; kind: "all" | "any"; result: boolean; children: ExplainedNode[] }
  | { path: string; kind: "property"; result: boolean; rule: Record<string, unknown>; observed: PropertyObservation }
  | { path: string; kind: "event"; result: boolean; rule: Record<string, unknown>; observed: EventObservation };

export type ExplainedRule = { matches: boolean; tree: ExplainedNode };

/** One node's row as the evaluation returns it. */
export type NodeReading = {
  path: string;
  result: boolean;
  observed: Record<string, unknown> | null;
  matches?: boolean;
};

const typeOf = (v: unknown) => (v === null || v === undefined ? "missing" : Array.isArray(v) ? "array" : typeof v);
const iso = (v: unknown) => (typeof v === "string" ? new Date(v).toISOString() : null);

function comparisonText(path: string, c: { op: string; value?: unknown }): string {
  return c.op === "exists" || c.op === "not_exists" ? `${path} ${c.op}` : `${path} ${c.op} ${JSON.stringify(c.value)}`;
}

/** Puts each node's reading onto the rule tree (the paths are compileRule's). */
export function annotateRule(rule: Rule, readings: Map<string, NodeReading>): ExplainedRule {
  const walk = (r: Rule, path: string): ExplainedNode => {
    const reading = readings.get(path);
    const result = reading?.result ?? false;
    if ("all" in r) return { path, kind: "all", result, children: r.all.map((x, i) => walk(x, `${path}.all[${i}]`)) };
    if ("any" in r) return { path, kind: "any", result, children: r.any.map((x, i) => walk(x, `${path}.any[${i}]`)) };
    const o = reading?.observed ?? {};
    if ("property" in r) {
      const value = o.value ?? null;
      return {
        path,
        kind: "property",
        result,
        rule: r.property,
        observed: {
          value,
          missing: value === null,
          type: typeOf(value),
          comparison: comparisonText(r.property.path, r.property),
        },
      };
    }
    const e = r.event;
    const where = (e.where ?? []) as Condition[];
    const samples = (
      (o.samples as {
        id: string;
        occurred_at: string;
        organization_id: string | null;
        clauses: { value: unknown; passed: boolean }[];
      }[]) ?? []
    ).map((s): ExplainedSample => {
      const clauses = where.map((c, i) => {
        const seen = s.clauses[i]?.value ?? null;
        return { path: c.path, op: c.op, value: c.value, seen, missing: seen === null, passed: !!s.clauses[i]?.passed };
      });
      return {
        event_id: s.id,
        occurred_at: iso(s.occurred_at)!,
        organization_id: s.organization_id,
        where: clauses,
        counted: clauses.every((c) => c.passed),
      };
    });
    return {
      path,
      kind: "event",
      result,
      rule: e,
      observed: {
        found: Number(o.found ?? 0),
        needed: e.at_least,
        found_ignoring_where: o.found_ignoring_where == null ? null : Number(o.found_ignoring_where),
        window_from: iso(o.window_from),
        window_to: iso(o.window_to),
        samples,
      },
    };
  };
  const tree = walk(rule, "$");
  return { matches: [...readings.values()][0]?.matches ?? tree.result, tree };
}
