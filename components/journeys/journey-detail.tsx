"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { QueryState } from "@/components/ui/query-state";
import { JsonView } from "@/components/ui/json-view";
import { PageHeader } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import type { JourneyView } from "@/lib/journeys/schemas";
import { JourneyEditor } from "./journey-editor";
import { JourneyEntries } from "./journey-entries";
import { JourneyReportPanel } from "./journey-report-panel";
import { JourneySteps } from "./journey-steps";

/** One journey: its entrances (editable by editors), its steps as a flow, what its messages did, and its entries. */
export function JourneyDetail({ journeyId }: { journeyId: string }) {
  const project = useProject();
  const [step, setStep] = useState<string | null>(null);
  const q = useQuery({
    queryKey: ["journey", project.id, journeyId],
    queryFn: () => apiFetch<JourneyView>(adminPath(project.id, `/journeys/${journeyId}`)),
    refetchInterval: 10_000,
  });
  return (
    <QueryState q={q} what="journey">
      {(j) => (
        <>
          <PageHeader
            title={j.name}
            description={
              <>
                <Link href={`/projects/${project.id}/journeys`} className="text-indigo-700 hover:underline">
                  Journeys
                </Link>{" "}
                · {j.entrances.length} entrance{j.entrances.length === 1 ? "" : "s"} · {j.steps.length} step
                {j.steps.length === 1 ? "" : "s"}
              </>
            }
          />
          <div className="space-y-6">
            {roleAtLeast(project.role, "editor") ? (
              <JourneyEditor key={j.updated_at} journey={j} />
            ) : (
              <JsonView value={j.entrances} />
            )}
            <JourneySteps key={`steps-${j.updated_at}`} journey={j} selected={step} onSelect={setStep} />
            <JourneyReportPanel journey={j} stepKey={step} />
            <JourneyEntries journey={j} stepKey={step} />
          </div>
        </>
      )}
    </QueryState>
  );
}
