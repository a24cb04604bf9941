"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { ReportView } from "@/components/reports/report-view";
import { ErrorBanner, LoadingRows, Section } from "@/components/ui/states";
import type { JourneyView } from "@/lib/journeys/schemas";
import type { JourneyReport } from "@/lib/reports/schemas";
import type { StepReport } from "./canvas/step-stats";

export type JourneyReportView = Omit<JourneyReport, "steps"> & { steps: StepReport[] };

/**
 * The journey's report (GET …/journeys/{id}/report), read again every 15 seconds and whenever the journey
 * changes (its `updated_at` is in the key: saved steps are counted at once). One query for the flow's
 * boxes and the report below them.
 */
export function useJourneyReport(journey: JourneyView) {
  const project = useProject();
  return useQuery({
    queryKey: ["journey-report", project.id, journey.id, journey.updated_at],
    queryFn: () => apiFetch<JourneyReportView>(adminPath(project.id, `/journeys/${journey.id}/report`)),
    refetchInterval: 15_000,
  });
}

/**
 * What the journey's messages did: the whole journey's funnel, or the selected send step's, each count
 * linking to the messages behind it.
 */
export function JourneyReportPanel({ journey, stepKey }: { journey: JourneyView; stepKey: string | null }) {
  const project = useProject();
  const q = useJourneyReport(journey);
  const step = stepKey ? q.data?.steps.find((s) => s.key === stepKey) : undefined;
  const report = step?.report ?? (step ? undefined : q.data);
  const title = step?.report ? `What ${step.key}'s messages did` : "What the journey's messages did";
  const scope = `journey_id=${journey.id}${step?.report ? `&step=${encodeURIComponent(step.key)}` : ""}`;
  return (
    <Section
      title={title}
      description={
        step?.report || !stepKey
          ? "Counted by the hour each thing happened in. Select a send step above for its own figures."
          : `${stepKey} sends nothing: the journey's figures are below the other steps. Select a send step for its own.`
      }
    >
      {q.isPending ? (
        <LoadingRows label="Loading the journey's report" />
      ) : q.isError ? (
        <ErrorBanner message={q.error.message} />
      ) : (
        <ReportView
          report={report ?? q.data}
          empty="Nothing sent by this journey yet."
          messagesHref={(event) =>
            `/projects/${project.id}/messages?${scope}${event === "sent" ? "&state=sent" : `&event=${event}`}`
          }
        />
      )}
    </Section>
  );
}
