"use client";
import { percent } from "@/components/reports/report-view";
import { exitsOf } from "@/lib/journeys/step-graph";
import type { Step } from "@/lib/journeys/step-schema";
import type { JourneyReport, Report } from "@/lib/reports/schemas";

/** A path's A/B figures: its rate with the 95 % interval and the chance it beats the others. */
type PathVerdict = { index: number; rate: number; interval: [number, number]; chance_to_beat_others: number };

/**
 * A step of the journey's report (GET …/journeys/{id}/report). A split step may also carry its paths
 * (the entries that took each, and the funnel of what was sent after it) and its A/B test (the metric,
 * each path's verdict, the winner's path index once decided); each is read only when present, so the
 * boxes work on reports with or without them, the path figures falling back to the step each path leads to.
 */
export type StepReport = JourneyReport["steps"][number] & {
  paths?: { index: number; entered: number; report?: Report }[];
  test?: { metric?: string; winner?: number | null; state?: string; paths?: PathVerdict[] } | null;
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

/** A split's verdict as a badge: decided (the winner), over without one, running, or none without a test. */
export function VerdictBadge({ test }: { test: StepReport["test"] }) {
  if (!test) return null;
  const badge = "rounded-full px-1.5 py-px text-[10px] font-medium ring-1";
  if (typeof test.winner === "number")
    return (
      <span className={`${badge} bg-emerald-50 text-emerald-700 ring-emerald-200`}>Winner: path {test.winner + 1}</span>
    );
  const on = test.metric ? ` on ${test.metric}` : "";
  return test.state === "no_winner" ? (
    <span className={`${badge} bg-zinc-100 text-zinc-700 ring-zinc-200`}>A/B{on}: no winner</span>
  ) : (
    <span className={`${badge} bg-amber-50 text-amber-800 ring-amber-200`}>A/B{on}: no winner yet</span>
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
  const ledTo = (key: string) =>
    steps.reduce((n, _s, i) => n + exitsOf(steps, i).filter((e) => e.to === key).length, 0);
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
          <VerdictBadge test={report.test} />
          <ul className="space-y-0.5" aria-label={`Paths of ${step.key}`}>
            {step.paths.map((p, i) => {
              // The path's own figures when the report has them, else the step it leads to when only it does.
              const own = report.paths?.find((x) => x.index === i);
              const target = byKey.get(p.next);
              const entered = own?.entered ?? (target && ledTo(p.next) === 1 ? target.entered : undefined);
              const funnel = own
                ? own.report?.funnel
                : target && ledTo(p.next) === 1
                  ? target.report?.funnel
                  : undefined;
              const v = report.test?.paths?.find((x) => x.index === i);
              return (
                <li key={`${i}-${p.next}`} className="text-[11px] leading-tight text-zinc-700">
                  <span className="font-medium">path {i + 1}</span> → <span className="font-mono">{p.next}</span>
                  {entered !== undefined ? `: ${count(entered)} entered` : ""}
                  {funnel && funnel.sent.count > 0 ? `, ${percent(funnel.opened.rate)} opened` : ""}
                  {v && (
                    <span
                      className="block pl-2 text-zinc-500"
                      title={`Rate ${percent(v.rate)}, 95 % interval ${percent(v.interval[0])} to ${percent(v.interval[1])}; chance to beat the others ${percent(v.chance_to_beat_others)}`}
                    >
                      {percent(v.rate)} ({percent(v.interval[0])}–{percent(v.interval[1])}) · best{" "}
                      {percent(v.chance_to_beat_others)}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
