"use client";
import { percent } from "@/components/reports/report-view";
import { exitsOf } from "@/lib/journeys/step-graph";
import type { Step } from "@/lib/journeys/step-schema";
import type { JourneyReport } from "@/lib/reports/schemas";

/**
 * A step of the journey's report (GET …/journeys/{id}/report). A split step may also carry an A/B test's
 * verdict: the test it runs and, once decided, its winner (a path index); read only when present, so
 * the canvas works on reports with or without them.
 */
export type StepReport = JourneyReport["steps"][number] & {
  test?: { metric?: string } | null;
  winner?: number | { path?: number } | null;
};

type Counts = Record<string, { waiting: number; waiting_capped?: boolean; passed: number }>;

/**
 * Each step's numbers by key: the report's when it has the step, else the journey view's own counts
 * (the same figures: the report reads them from the view), so a box never waits for the report to show
 * entered, waiting and left, and a step added since the report was read still shows them.
 */
export function stepReports(steps: Step[], counts: Counts, report?: { steps: StepReport[] }): Map<string, StepReport> {
  const read = new Map((report?.steps ?? []).map((s) => [s.key, s]));
  return new Map(
    steps.map((s) => {
      const c = counts[s.key] ?? { waiting: 0, waiting_capped: false, passed: 0 };
      return [
        s.key,
        read.get(s.key) ?? {
          key: s.key,
          kind: s.kind,
          entered: c.waiting + c.passed,
          waiting: c.waiting,
          waiting_capped: c.waiting_capped ?? false,
          left: c.passed,
        },
      ];
    }),
  );
}

const count = (n: number, capped = false) => `${n.toLocaleString("en")}${capped ? "+" : ""}`;

/** The winning path's index (0-based) when the report names one. */
function winnerOf(s: StepReport): number | null {
  if (typeof s.winner === "number") return s.winner;
  if (s.winner && typeof s.winner === "object" && typeof s.winner.path === "number") return s.winner.path;
  return null;
}

/** A split's verdict as a badge: decided (the winner), running (a test, no winner yet), or nothing. */
export function VerdictBadge({ step }: { step: StepReport }) {
  if (!("winner" in step) && !step.test) return null;
  const w = winnerOf(step);
  return w === null ? (
    <span className="rounded-full bg-amber-50 px-1.5 py-px text-[10px] font-medium text-amber-800 ring-1 ring-amber-200">
      A/B{step.test?.metric ? ` on ${step.test.metric}` : ""}: no winner yet
    </span>
  ) : (
    <span className="rounded-full bg-emerald-50 px-1.5 py-px text-[10px] font-medium text-emerald-700 ring-1 ring-emerald-200">
      Winner: path {w + 1}
    </span>
  );
}

/** A send funnel in one line: sent, and what share opened, clicked and converted. */
export function FunnelLine({ report }: { report: NonNullable<StepReport["report"]> }) {
  const f = report.funnel;
  return (
    <p className="text-[11px] leading-tight text-zinc-700" data-testid="step-funnel">
      <span title="messages sent">{count(f.sent.count)} sent</span>
      {" · "}
      <span title={`opened, of ${f.rate_base}`}>{percent(f.opened.rate)} opened</span>
      {" · "}
      <span title={`clicked, of ${f.rate_base}`}>{percent(f.clicked.rate)} clicked</span>
      {f.converted.count > 0 && (
        <>
          {" · "}
          <span title={`converted, of ${f.rate_base}`}>{percent(f.converted.rate)} conv.</span>
        </>
      )}
    </p>
  );
}

/**
 * A step's numbers for its box: entries that reached it, wait there now, and left it; a send step's
 * funnel; a split's paths, each with the entries of the step it leads to (when no other way leads
 * there, so the figure is that path's alone) and that step's funnel when it sends, and the verdict.
 */
export function StepStats({
  step,
  report,
  steps,
  byKey,
}: {
  step: Step;
  report: StepReport | undefined;
  steps: Step[];
  byKey: Map<string, StepReport>;
}) {
  if (!report) return null;
  // How many ways out of any step lead to `key`: a path's figure is its target's only when it is the one.
  const ledTo = (key: string) => steps.reduce((n, _s, i) => n + exitsOf(steps, i).filter((e) => e.to === key).length, 0);
  return (
    <div className="mt-1 space-y-0.5" data-testid={`stats-${step.key}`}>
      <p className="text-[11px] leading-tight text-zinc-700">
        <span title="entries that reached this step">{count(report.entered)} entered</span>
        {" · "}
        <span title="entries at this step now">{count(report.waiting, report.waiting_capped)} waiting</span>
        {" · "}
        <span title="entries that left this step">{count(report.left)} left</span>
      </p>
      {report.report && <FunnelLine report={report.report} />}
      {step.kind === "split" && (
        <>
          <VerdictBadge step={report} />
          <ul className="space-y-0.5" aria-label={`Paths of ${step.key}`}>
            {step.paths.map((p, i) => {
              const target = byKey.get(p.next);
              const own = target && ledTo(p.next) === 1;
              return (
                <li key={`${i}-${p.next}`} className="text-[11px] leading-tight text-zinc-700">
                  <span className="font-medium">path {i + 1}</span> → <span className="font-mono">{p.next}</span>
                  {own ? `: ${count(target.entered)} entered` : ""}
                  {own && target.report ? `, ${percent(target.report.funnel.opened.rate)} opened` : ""}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
