"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { Badge, Card, ErrorBanner } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { JourneyView } from "@/lib/journeys/schemas";
import { stepReports } from "./canvas/step-stats";
import { StepsEditor } from "./canvas/steps-editor";
import { useJourneyReport } from "./journey-report-panel";
import { StepFlow } from "./step-flow";

/**
 * A journey's steps: the flow with each step's counts and, from the journey's report, each send step's
 * funnel and each split's paths (click a step to list who is there), pause and resume, and for editors
 * the steps editor (canvas, side panel and JSON: canvas/steps-editor.tsx), whose boxes show the same.
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
  const [editing, setEditing] = useState(false);
  const report = useJourneyReport(journey).data;
  const byKey = useMemo(() => stepReports(journey.steps, journey.step_counts, report), [journey, report]);
  const pause = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiFetch<JourneyView>(adminPath(project.id, `/journeys/${journey.id}`), { method: "PATCH", body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["journey", project.id, journey.id] }),
  });
  return (
    <Card className="space-y-3 p-5">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="flex-1 text-sm font-semibold text-zinc-900">
          Steps {journey.paused && <Badge tone="amber">paused</Badge>}
        </h2>
        {canEdit && (
          <>
            <Button size="sm" variant="secondary" onClick={() => pause.mutate({ paused: !journey.paused })}>
              {journey.paused ? "Resume" : "Pause"}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setEditing(!editing)}>
              {editing ? "Close editor" : "Edit steps"}
            </Button>
          </>
        )}
      </div>
      {!editing && (
        <StepFlow
          steps={journey.steps}
          counts={journey.step_counts}
          report={report}
          selected={selected}
          onSelect={onSelect}
        />
      )}
      {selected && !editing && (
        <p className="text-xs text-zinc-600">
          Showing the entries at <code className="font-mono">{selected}</code> below.{" "}
          <button type="button" className="text-indigo-700 hover:underline" onClick={() => onSelect(null)}>
            Show all
          </button>
        </p>
      )}
      {pause.isError && <ErrorBanner message={pause.error.message} />}
      {editing && <StepsEditor journey={journey} report={byKey} onClose={() => setEditing(false)} />}
    </Card>
  );
}
