"use client";
import { Background, type Edge, MarkerType, type Node, ReactFlow } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import { exitsOf } from "@/lib/journeys/step-graph";
import type { Step } from "@/lib/journeys/step-schema";
import { KIND_TONE } from "./kind-tone";
import { StepStats, type StepReport, stepReports } from "./canvas/step-stats";

type Counts = Parameters<typeof stepReports>[1];

/** One line saying what a step does, for its box on the canvas. */
function summary(s: Step): string {
  switch (s.kind) {
    case "delay":
      return s.duration ? `for ${s.duration}` : `until ${s.until?.time} (${s.until?.timezone})`;
    case "wait":
      return s.event
        ? `for ${s.event.name}${s.event.same_as ? ` (same ${s.event.same_as})` : ""}${s.timeout ? `, ${s.timeout} max` : ""}`
        : `until ${s.list?.in ? "in" : "out of"} a list${s.timeout ? `, ${s.timeout} max` : ""}`;
    case "branch":
      return "rule";
    case "split":
      return s.paths.map((p) => p.weight).join(" / ");
    case "send":
      return `template ${s.template_id.slice(0, 8)}…`;
    case "update":
      return Object.keys(s.data).join(", ") || "nothing";
    default:
      return "";
  }
}

/**
 * The steps as a flow (React Flow): a box per step with its counts, an arrow per way out, laid out by
 * depth from the first step. Each box shows entered, waiting and left, and with the journey's report a
 * send step its funnel and a split its paths and verdict (canvas/step-stats.tsx). Clicking a step selects
 * it (the entries below list who is there).
 */
export function StepFlow({
  steps,
  counts,
  report,
  selected,
  onSelect,
}: {
  steps: Step[];
  counts: Counts;
  report?: { steps: StepReport[] };
  selected: string | null;
  onSelect: (key: string | null) => void;
}) {
  const { nodes, edges } = useMemo(() => {
    const stats = stepReports(steps, counts, report);
    const index = new Map(steps.map((s, i) => [s.key, i]));
    const depth = new Map<number, number>([[0, 0]]);
    const queue = steps.length ? [0] : [];
    while (queue.length) {
      const i = queue.shift()!;
      for (const e of exitsOf(steps, i)) {
        const j = e.to === null ? undefined : index.get(e.to);
        if (j !== undefined && !depth.has(j)) {
          depth.set(j, depth.get(i)! + 1);
          queue.push(j);
        }
      }
    }
    const column = new Map<number, number>();
    const nodes: Node[] = steps.map((s, i) => {
      const d = depth.get(i) ?? 0;
      const x = column.get(d) ?? 0;
      column.set(d, x + 1);
      return {
        id: s.key,
        position: { x: x * 240, y: d * 200 },
        data: {
          label: (
            <div className="text-left" data-testid={`step-${s.key}`}>
              <div className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs font-semibold text-zinc-900">{s.key}</span>
                <span className="text-[10px] uppercase tracking-wide text-zinc-500">{s.kind}</span>
              </div>
              <div className="truncate text-[11px] text-zinc-600">{summary(s)}</div>
              <StepStats step={s} report={stats.get(s.key)} steps={steps} byKey={stats} />
            </div>
          ),
        },
        className: `!w-52 !rounded-md !border-2 !p-2 ${KIND_TONE[s.kind] ?? ""} ${selected === s.key ? "!border-indigo-600" : ""}`,
        draggable: false,
      };
    });
    const edges: Edge[] = steps.flatMap((s, i) =>
      exitsOf(steps, i)
        .filter((e) => e.to !== null)
        .map((e) => ({
          id: `${s.key}:${e.field}`,
          source: s.key,
          target: e.to!,
          label: e.label || undefined,
          markerEnd: { type: MarkerType.ArrowClosed },
        })),
    );
    return { nodes, edges };
  }, [steps, counts, report, selected]);
  if (!steps.length)
    return <p className="text-sm text-zinc-500">No steps: entries stay where they entered until exited.</p>;
  return (
    <section className="h-[28rem] rounded-md border border-zinc-200" aria-label="Journey steps">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        fitView
        nodesConnectable={false}
        onNodeClick={(_e, n) => onSelect(n.id === selected ? null : n.id)}
        onPaneClick={() => onSelect(null)}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
      </ReactFlow>
    </section>
  );
}
