"use client";
import { formatDateTime } from "@/components/ui/format";
import type { ExplainedNode } from "@/components/console/api-types";
import { OP_LABELS, type Op } from "@/components/rule-builder/operators";

/** "needs at least 50", "needs to be set": the condition in the words the rule builder uses. */
export function needs(op: string, value: unknown): string {
  const label = OP_LABELS[op as Op] ?? op;
  return op === "exists" || op === "not_exists" ? `needs: ${label}` : `needs: ${label} ${show(value)}`;
}

const show = (v: unknown) => (v === null || v === undefined ? "missing" : JSON.stringify(v));

function Verdict({ passed }: { passed: boolean }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded px-1.5 py-0.5 text-xs font-semibold ${
        passed ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700"
      }`}
    >
      {passed ? "passed" : "failed"}
    </span>
  );
}

function Leaf({ node }: { node: Extract<ExplainedNode, { kind: "event" | "property" }> }) {
  if (node.kind === "property") {
    const o = node.observed;
    return (
      <div className="min-w-0">
        <p className="font-mono text-sm text-zinc-900">{o.comparison}</p>
        <p className="text-xs text-zinc-600">
          found <span className="font-mono text-zinc-900">{o.missing ? "nothing (missing)" : show(o.value)}</span>
          {!o.missing && <span className="text-zinc-400"> ({o.type})</span>}
        </p>
      </div>
    );
  }
  const r = node.rule as { name: string; at_least: number; within_days?: number; scope?: string };
  const o = node.observed;
  return (
    <div className="min-w-0 space-y-1">
      <p className="text-sm text-zinc-900">
        <span className="font-mono">{r.name}</span> at least {r.at_least}×
        {r.within_days ? ` in the last ${r.within_days} days` : ""}
        {r.scope === "organization" ? " (by an organization of the user)" : ""}
      </p>
      <p className="text-xs text-zinc-600">
        found <span className="font-semibold text-zinc-900">{o.found}</span>
        {o.found >= o.needed ? "" : ` of ${o.needed} needed`}
        {o.found_ignoring_where !== null && o.found_ignoring_where !== o.found
          ? ` (${o.found_ignoring_where} before the where clauses)`
          : ""}
        {o.window_from && (
          <>
            {" "}
            · window {formatDateTime(o.window_from)} – {formatDateTime(o.window_to)}
          </>
        )}
      </p>
      {o.samples.length > 0 && (
        <ul className="space-y-0.5 text-xs text-zinc-600">
          {o.samples.map((s) => (
            <li key={s.event_id} className="flex flex-wrap items-center gap-x-2">
              <span className={s.counted ? "text-emerald-600" : "text-red-600"} aria-hidden>
                {s.counted ? "✓" : "✗"}
              </span>
              <span>{formatDateTime(s.occurred_at)}</span>
              {s.where.map((w) => (
                <span key={w.path} className={w.passed ? "text-zinc-500" : "text-red-700"}>
                  <span className="font-mono">
                    {w.path} = {w.missing ? "missing" : show(w.seen)}
                  </span>
                  {!w.passed && ` (${needs(w.op, w.value)})`}
                </span>
              ))}
              <span className="sr-only">{s.counted ? "counted" : "not counted"}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** An evaluated rule tree: each node marked passed or failed, with what its leaves read. */
export function RuleTree({ node }: { node: ExplainedNode }) {
  if ("children" in node)
    return (
      <div className="space-y-2" data-node={node.path}>
        <div className="flex items-center gap-2">
          <Verdict passed={node.result} />
          <span className="text-sm font-medium text-zinc-800">
            {node.kind === "all" ? "All of these" : "Any of these"}
          </span>
        </div>
        <ul className="ml-2 space-y-2 border-l border-zinc-200 pl-4">
          {node.children.map((c) => (
            <li key={c.path}>
              <RuleTree node={c} />
            </li>
          ))}
        </ul>
      </div>
    );
  return (
    <div className="flex items-start gap-2" data-node={node.path}>
      <Verdict passed={node.result} />
      <Leaf node={node} />
    </div>
  );
}
