"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { adminPath, ApiError, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Badge, Card, ErrorBanner, inputClass } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { JourneyView } from "@/lib/journeys/schemas";
import { stepsInput } from "@/lib/journeys/step-schema";
import { StepFlow } from "./step-flow";

/**
 * A journey's steps: the flow with each step's counts (click a step to list who is there), pause and
 * resume, and for editors the steps as JSON, checked by the API's schema here and by the server's
 * validation (which names the bad step by path) on save.
 */
export function JourneySteps({
  journey,
  selected,
  onSelect,
}: {
  journey: JourneyView;
  selected: string | null;
  onSelect: (key: string | null) => void;
}) {
  const project = useProject();
  const qc = useQueryClient();
  const canEdit = roleAtLeast(project.role, "editor");
  const [text, setText] = useState(() => JSON.stringify(journey.steps, null, 2));
  const [editing, setEditing] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<JourneyView>(adminPath(project.id, `/journeys/${journey.id}`), { method: "PATCH", body }),
    onSuccess: () => {
      setEditing(false);
      setProblems([]);
      qc.invalidateQueries({ queryKey: ["journey", project.id, journey.id] });
    },
    onError: (err) => {
      const errors =
        (err instanceof ApiError && (err.body as { errors?: { path: string; message: string }[] })?.errors) || [];
      setProblems(errors.length ? errors.map((e) => `${e.path}: ${e.message}`) : [err.message]);
    },
  });
  const submit = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setProblems(["not JSON"]);
      return;
    }
    const checked = stepsInput.safeParse(parsed);
    if (!checked.success) {
      setProblems(
        checked.error.issues.map(
          (i) =>
            `steps${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}: ${i.message}`,
        ),
      );
      return;
    }
    save.mutate({ steps: parsed });
  };
  return (
    <Card className="space-y-3 p-5">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="flex-1 text-sm font-semibold text-zinc-900">
          Steps {journey.paused && <Badge tone="amber">paused</Badge>}
        </h2>
        {canEdit && (
          <>
            <Button size="sm" variant="secondary" onClick={() => save.mutate({ paused: !journey.paused })}>
              {journey.paused ? "Resume" : "Pause"}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setEditing(!editing)}>
              {editing ? "Close editor" : "Edit steps"}
            </Button>
          </>
        )}
      </div>
      <StepFlow steps={journey.steps} counts={journey.step_counts} selected={selected} onSelect={onSelect} />
      {selected && (
        <p className="text-xs text-zinc-600">
          Showing the entries at <code className="font-mono">{selected}</code> below.{" "}
          <button type="button" className="text-indigo-700 hover:underline" onClick={() => onSelect(null)}>
            Show all
          </button>
        </p>
      )}
      {editing && (
        <div className="space-y-2">
          <label className="block text-xs font-medium text-zinc-700" htmlFor="steps-json">
            Steps (JSON): kinds delay, wait, branch, split, send, update, exit; `next` defaults to the following step
          </label>
          <textarea
            id="steps-json"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={14}
            spellCheck={false}
            className={`${inputClass} font-mono text-xs`}
          />
          {problems.length > 0 && <ErrorBanner message={problems.join("; ")} />}
          <Button size="sm" onClick={submit} disabled={save.isPending}>
            Save steps
          </Button>
        </div>
      )}
    </Card>
  );
}
