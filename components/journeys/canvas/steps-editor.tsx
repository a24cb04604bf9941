"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { ApiError, adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { useEventSchema } from "@/components/rule-builder/use-event-schema";
import { Button } from "@/components/ui/button";
import { ErrorBanner, inputClass } from "@/components/ui/states";
import type { JourneyView } from "@/lib/journeys/schemas";
import { MAX_STEPS, STEP_KINDS, type Step, type StepKind, stepsInput } from "@/lib/journeys/step-schema";
import { zodIssuesToFieldErrors } from "@/lib/http/zod-errors";
import {
  type DraftStep,
  errorsByStep,
  exitFields,
  fromApi,
  newStep,
  removeStep,
  renameKey,
  targetOf,
  toApi,
  withTarget,
} from "./draft";
import { StepCanvas, type XY, layout } from "./step-canvas";
import type { StepReport } from "./step-stats";
import { StepPanel } from "./step-panel";

type Problems = ReturnType<typeof errorsByStep>;
const NONE: Problems = { byUid: new Map(), other: [] };

const PALETTE: Record<StepKind, string> = {
  delay: "Delay",
  wait: "Wait",
  branch: "Branch",
  split: "Split",
  send: "Send",
  update: "Update",
  exit: "Exit",
};

/**
 * The steps editor: a palette, the canvas, the selected step's side panel, and the same steps as JSON
 * (an advanced view of one state, draft.ts). Saving PATCHes the journey's steps; the API's refusals
 * (`steps[2].template_id: …`) show on the box and in the panel of the step they name.
 */
export function StepsEditor({
  journey,
  report,
  onClose,
}: {
  journey: JourneyView;
  /** The saved steps' numbers by key, shown on their boxes. */
  report?: Map<string, StepReport>;
  onClose: () => void;
}) {
  const project = useProject();
  const qc = useQueryClient();
  const schema = useEventSchema(project.id);
  const [draft, setDraft] = useState<DraftStep[]>(() => fromApi(journey.steps));
  const [positions, setPositions] = useState<Record<string, XY>>(() => layout(draft));
  const [selected, setSelected] = useState<string | null>(null);
  // Bumped by every edit made outside the panel, so the open panel re-reads its step.
  const [version, setVersion] = useState(0);
  const [view, setView] = useState<"canvas" | "json">("canvas");
  const [text, setText] = useState("");
  const [problems, setProblems] = useState<Problems>(NONE);
  const edit = (next: (d: DraftStep[]) => DraftStep[]) => {
    setDraft(next);
    setVersion((v) => v + 1);
  };
  const save = useMutation({
    mutationFn: (steps: Step[]) =>
      apiFetch<JourneyView>(adminPath(project.id, `/journeys/${journey.id}`), { method: "PATCH", body: { steps } }),
    onSuccess: () => {
      setProblems(NONE);
      qc.invalidateQueries({ queryKey: ["journey", project.id, journey.id] });
      onClose();
    },
  });
  /** `against`: the draft whose boxes the refusals go on; none from the JSON view, where they are listed. */
  const submit = (steps: Step[], against: DraftStep[] | null) => {
    const place = (errors: { path: string; message: string }[]): Problems =>
      against
        ? errorsByStep(against, errors)
        : { byUid: new Map(), other: errors.map((e) => `${e.path}: ${e.message}`) };
    const checked = stepsInput.safeParse(steps);
    if (!checked.success) {
      const errors = zodIssuesToFieldErrors(checked.error.issues).map((e) => ({ ...e, path: `steps${e.path}` }));
      setProblems(place(errors));
      return;
    }
    save.mutate(checked.data, {
      onError: (err) => {
        const errors =
          (err instanceof ApiError && (err.body as { errors?: { path: string; message: string }[] })?.errors) || [];
        setProblems(errors.length ? place(errors) : { byUid: new Map(), other: [err.message] });
      },
    });
  };
  const readJson = (): DraftStep[] | null => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setProblems({ byUid: new Map(), other: ["not JSON"] });
      return null;
    }
    const checked = stepsInput.safeParse(parsed);
    if (!checked.success) {
      setProblems({
        byUid: new Map(),
        other: zodIssuesToFieldErrors(checked.error.issues).map((e) => `steps${e.path}: ${e.message}`),
      });
      return null;
    }
    return fromApi(checked.data);
  };
  const show = (to: "canvas" | "json") => {
    if (to === view) return;
    if (to === "json") setText(JSON.stringify(toApi(draft), null, 2));
    else {
      const read = readJson();
      if (!read) return;
      setProblems(NONE);
      edit(() => read);
      setPositions(layout(read));
      setSelected(null);
    }
    setView(to);
  };
  const add = (kind: StepKind) => {
    const step = newStep(
      kind,
      draft.map((d) => d.step),
    );
    const uid = fromApi([step])[0]!.uid;
    const from = draft.find((d) => d.uid === selected) ?? draft[draft.length - 1];
    const open = from && exitFields(from.step).find((e) => !targetOf(from.step, e.field));
    edit((d) => [
      ...d.map((x) =>
        from && open && x.uid === from.uid ? { ...x, step: withTarget(x.step, open.field, step.key) } : x,
      ),
      { uid, step },
    ]);
    const below = from ? positions[from.uid] : undefined;
    const lowest = Math.max(-170, ...Object.values(positions).map((p) => p.y));
    setPositions((p) => ({ ...p, [uid]: { x: below?.x ?? 0, y: (below ? below.y : lowest) + 170 } }));
    setSelected(uid);
  };
  const current = draft.find((d) => d.uid === selected);
  const onPanelChange = useCallback(
    (s: Step) => setDraft((d) => d.map((x) => (x.uid === selected ? { ...x, step: s } : x))),
    [selected],
  );
  const nodeProblems = useMemo(
    () =>
      new Map(
        [...problems.byUid].map(([uid, list]) => [
          uid,
          list.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)),
        ]),
      ),
    [problems],
  );
  const keyOf = (uid: string) => draft.find((d) => d.uid === uid)?.step.key;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2" role="tablist" aria-label="Steps view">
        {(["canvas", "json"] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            onClick={() => show(v)}
            className={`rounded-md px-3 py-1 text-sm ${view === v ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100"}`}
          >
            {v === "canvas" ? "Canvas" : "JSON (advanced)"}
          </button>
        ))}
      </div>
      {view === "canvas" ? (
        <>
          <div className="flex flex-wrap items-center gap-1.5" role="toolbar" aria-label="Add a step">
            <span className="mr-1 text-xs font-medium text-zinc-600">Add a step:</span>
            {STEP_KINDS.map((k) => (
              <Button key={k} size="sm" variant="secondary" disabled={draft.length >= MAX_STEPS} onClick={() => add(k)}>
                + {PALETTE[k]}
              </Button>
            ))}
          </div>
          <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_24rem]">
            <StepCanvas
              draft={draft}
              positions={positions}
              selected={selected}
              problems={nodeProblems}
              report={report}
              onSelect={setSelected}
              onMove={(uid, to) => setPositions((p) => ({ ...p, [uid]: to }))}
              onConnect={(from, field, to) => {
                const key = keyOf(to);
                edit((d) => d.map((x) => (x.uid === from ? { ...x, step: withTarget(x.step, field, key) } : x)));
              }}
              onCut={(from, field) =>
                edit((d) => d.map((x) => (x.uid === from ? { ...x, step: withTarget(x.step, field, undefined) } : x)))
              }
            />
            <aside className="rounded-md border border-zinc-200 bg-white p-3">
              {current ? (
                <StepPanel
                  key={`${current.uid}:${version}`}
                  step={current.step}
                  keys={draft.map((d) => d.step.key)}
                  schema={schema}
                  errors={problems.byUid.get(current.uid) ?? []}
                  onChange={onPanelChange}
                  onRename={(to) => {
                    if (draft.some((d) => d.step.key === to)) return;
                    edit((d) => renameKey(d, current.step.key, to));
                  }}
                  onRemove={() => {
                    edit((d) => removeStep(d, current.uid));
                    setSelected(null);
                  }}
                />
              ) : (
                <p className="text-sm text-zinc-500">
                  Select a step to set it up, or add one. Drag from a step&apos;s lower handle to another step to
                  connect them; select an arrow and press Delete to cut it. The first step is where entries start.
                </p>
              )}
            </aside>
          </div>
        </>
      ) : (
        <div className="space-y-2">
          <label className="block text-xs font-medium text-zinc-700" htmlFor="steps-json">
            Steps (JSON): kinds delay, wait, branch, split, send, update, exit; `next` defaults to the following step
          </label>
          <textarea
            id="steps-json"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={16}
            spellCheck={false}
            className={`${inputClass} font-mono text-xs`}
          />
        </div>
      )}
      {problems.other.length > 0 && <ErrorBanner message={problems.other.join("; ")} />}
      {problems.byUid.size > 0 && (
        <ErrorBanner
          message={`Not saved: ${[...problems.byUid].map(([uid, l]) => `${keyOf(uid)}: ${l.map((e) => e.message).join(", ")}`).join("; ")}`}
        />
      )}
      <div className="flex items-center gap-2">
        <Button
          size="sm"
          disabled={save.isPending}
          onClick={() => {
            if (view === "canvas") return submit(toApi(draft), draft);
            const read = readJson();
            if (read) submit(toApi(read), null);
          }}
        >
          {save.isPending ? "Saving…" : "Save steps"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
