"use client";
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  Handle,
  MarkerType,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  useReactFlow,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { memo, useEffect, useMemo } from "react";
import type { Step } from "@/lib/journeys/step-schema";
import { type DraftStep, exitFields, targetOf } from "./draft";
import { KIND_TONE } from "@/components/journeys/kind-tone";
import { StepStats, type StepReport } from "./step-stats";

export type XY = { x: number; y: number };

type StepData = {
  step: Step;
  problems: string[];
  selected: boolean;
  first: boolean;
  /** The saved journey's numbers (by key): the steps as drafted and every step's figures. */
  stats?: { steps: Step[]; byKey: Map<string, StepReport> };
};

/**
 * A step's box: a handle to arrive at (top) and one per way out (bottom, labelled), its problems in red,
 * and the saved step's numbers (entered, waiting, left; a send's funnel; a split's paths).
 */
const StepNode = memo(function StepNode({ data }: NodeProps<Node<StepData>>) {
  const { step, problems, selected, first, stats } = data;
  const exits = exitFields(step);
  return (
    <div
      data-testid={`canvas-step-${step.key}`}
      className={`w-52 rounded-md border-2 p-2 text-left shadow-sm ${KIND_TONE[step.kind] ?? ""} ${
        problems.length ? "!border-red-500" : selected ? "!border-indigo-600" : ""
      }`}
    >
      {!first && <Handle type="target" position={Position.Top} id="in" className="!h-3 !w-3 !bg-zinc-500" />}
      <div className="flex items-center justify-between gap-2">
        <span className="font-mono text-xs font-semibold text-zinc-900">{step.key}</span>
        <span className="text-[10px] uppercase tracking-wide text-zinc-500">
          {first ? "first · " : ""}
          {step.kind}
        </span>
      </div>
      {stats && <StepStats step={step} report={stats.byKey.get(step.key)} steps={stats.steps} byKey={stats.byKey} />}
      {problems.map((p) => (
        <p key={p} className="mt-1 text-[11px] leading-tight text-red-700" role="note">
          {p}
        </p>
      ))}
      {exits.length > 1 && (
        <div className="mt-2 flex justify-around text-[10px] text-zinc-500">
          {exits.map((e) => (
            <span key={e.field}>{e.label}</span>
          ))}
        </div>
      )}
      {exits.map((e, i) => (
        <Handle
          key={e.field}
          type="source"
          position={Position.Bottom}
          id={e.field}
          title={`${step.key}: ${e.label || "next"}`}
          style={{ left: `${((i + 1) / (exits.length + 1)) * 100}%` }}
          className="!h-3 !w-3 !bg-indigo-600"
        />
      ))}
    </div>
  );
});

const nodeTypes = { step: StepNode };

/** Fits the view again when a step is added or removed, so a new box is never off the canvas. */
function FitOnCount({ count }: { count: number }) {
  const flow = useReactFlow();
  useEffect(() => {
    if (count) requestAnimationFrame(() => flow.fitView({ maxZoom: 1 }));
  }, [count, flow]);
  return null;
}

/**
 * The editable flow: boxes where the editor left them, an arrow per way out. Dragging from a box's lower
 * handle to another box sets that way out; selecting an arrow and pressing Delete (or Backspace) cuts it.
 * Positions are the console's own (the API keeps no layout); `layout` gives the first ones. `report`: the
 * saved steps' numbers by key (a step added or renamed in the draft has none yet).
 */
export function StepCanvas({
  draft,
  positions,
  selected,
  problems,
  report,
  onSelect,
  onMove,
  onConnect,
  onCut,
}: {
  draft: DraftStep[];
  positions: Record<string, XY>;
  selected: string | null;
  problems: Map<string, string[]>;
  report?: Map<string, StepReport>;
  onSelect: (uid: string | null) => void;
  onMove: (uid: string, to: XY) => void;
  onConnect: (fromUid: string, field: string, toUid: string) => void;
  onCut: (fromUid: string, field: string) => void;
}) {
  const { nodes, edges } = useMemo(() => {
    const uidOf = new Map(draft.map((d) => [d.step.key, d.uid]));
    const stats = report && { steps: draft.map((d) => d.step), byKey: report };
    const nodes: Node<StepData>[] = draft.map((d, i) => ({
      id: d.uid,
      type: "step",
      position: positions[d.uid] ?? { x: 0, y: i * 120 },
      data: {
        step: d.step,
        problems: problems.get(d.uid) ?? [],
        selected: d.uid === selected,
        first: i === 0,
        stats,
      },
      selected: d.uid === selected,
      // Removing a step is the panel's Remove button: a stray Backspace must not drop a step.
      deletable: false,
    }));
    const edges: Edge[] = draft.flatMap((d) =>
      exitFields(d.step).flatMap(({ field, label }) => {
        const to = targetOf(d.step, field);
        const target = to ? uidOf.get(to) : undefined;
        if (!target) return [];
        return [
          {
            id: `${d.uid}|${field}`,
            source: d.uid,
            sourceHandle: field,
            target,
            targetHandle: "in",
            label: label || undefined,
            markerEnd: { type: MarkerType.ArrowClosed },
          },
        ];
      }),
    );
    return { nodes, edges };
  }, [draft, positions, selected, problems, report]);
  const onNodesChange = (changes: NodeChange[]) => {
    for (const c of changes) if (c.type === "position" && c.position) onMove(c.id, c.position);
  };
  return (
    <section className="h-[32rem] rounded-md border border-zinc-200 bg-white" aria-label="Journey canvas">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        onNodesChange={onNodesChange}
        onConnect={(c: Connection) => c.sourceHandle && onConnect(c.source, c.sourceHandle, c.target)}
        onEdgesDelete={(gone) => {
          for (const e of gone) onCut(e.source, e.id.slice(e.id.indexOf("|") + 1));
        }}
        onNodeClick={(_e, n) => onSelect(n.id)}
        onPaneClick={() => onSelect(null)}
        deleteKeyCode={["Delete", "Backspace"]}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <FitOnCount count={draft.length} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </section>
  );
}

/** First positions: by depth from the first step (breadth first), side by side within a depth. */
export function layout(draft: DraftStep[]): Record<string, XY> {
  const index = new Map(draft.map((d, i) => [d.step.key, i]));
  const depth = new Map<number, number>([[0, 0]]);
  const queue = draft.length ? [0] : [];
  while (queue.length) {
    const i = queue.shift()!;
    for (const { field } of exitFields(draft[i]!.step)) {
      const to = targetOf(draft[i]!.step, field);
      const j = to === undefined ? undefined : index.get(to);
      if (j !== undefined && !depth.has(j)) {
        depth.set(j, depth.get(i)! + 1);
        queue.push(j);
      }
    }
  }
  const column = new Map<number, number>();
  let deepest = Math.max(0, ...depth.values());
  const out: Record<string, XY> = {};
  draft.forEach((d, i) => {
    const dep = depth.get(i) ?? ++deepest;
    const x = column.get(dep) ?? 0;
    column.set(dep, x + 1);
    out[d.uid] = { x: x * 240, y: dep * 170 };
  });
  return out;
}
