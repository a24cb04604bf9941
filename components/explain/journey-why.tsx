"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { formatDateTime } from "@/components/ui/format";
import { Badge, ErrorBanner, LoadingRows } from "@/components/ui/states";
import type { JourneyExplanation } from "@/components/console/api-types";
import { needs, RuleTree } from "./rule-tree";

const REENTRY = {
  allowed: "Re-entry allowed now.",
  already_active: "Refused by the re-entry rule: an entry is still active and concurrent runs are off.",
  entered_before: "Refused by the re-entry rule: entered before and multiple entries are off.",
} as const;

const show = (v: unknown) => (v === null || v === undefined ? "missing" : JSON.stringify(v));

/** Why a user is or is not in a journey: candidate events per entrance, conditions, member rule, re-entry, past entries. */
export function JourneyWhy({ projectId, journeyId, userId }: { projectId: string; journeyId: string; userId: string }) {
  const q = useQuery({
    queryKey: ["journey-explain", projectId, journeyId, userId],
    queryFn: () =>
      apiFetch<JourneyExplanation>(adminPath(projectId, `/journeys/${journeyId}/explain?user_id=${userId}`)),
  });
  if (q.isPending) return <LoadingRows rows={3} label="Evaluating" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const x = q.data;
  return (
    <section className="space-y-3 text-sm" aria-label={`Why for ${x.journey.name}`}>
      <p className={x.reentry.verdict === "allowed" ? "text-zinc-600" : "font-medium text-amber-800"}>
        {REENTRY[x.reentry.verdict]}
      </p>
      {x.entrances.map((en) => (
        <div key={en.id} className="rounded-lg border border-zinc-200 bg-zinc-50/60 p-3">
          <p className="font-medium text-zinc-800">
            Entrance: {en.kind === "event" ? <span className="font-mono">{en.event_name}</span> : "scheduled"}
          </p>
          {en.candidates.length === 0 ? (
            <p className="mt-1 text-zinc-500">No event that could enter this user yet.</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {en.candidates.map((c) => (
                <li key={c.event_id} className="flex flex-wrap items-start gap-2">
                  <Badge tone={c.entry_id ? "green" : c.triggers ? "amber" : "red"}>
                    {c.entry_id ? "entered" : c.triggers ? "not entered" : "did not trigger"}
                  </Badge>
                  <span className="text-zinc-600">{formatDateTime(c.occurred_at)}</span>
                  {c.organization_id && <span className="text-zinc-500">(organization event)</span>}
                  {c.conditions.map((k) => (
                    <span key={k.path} className={`font-mono text-xs ${k.passed ? "text-zinc-500" : "text-red-700"}`}>
                      {k.path} = {k.missing ? "missing" : show(k.seen)} {k.passed ? "✓" : `✗ ${needs(k.op, k.value)}`}
                    </span>
                  ))}
                  {c.member_rule_passed === false && <span className="text-red-700">member rule failed</span>}
                </li>
              ))}
            </ul>
          )}
          {en.member_rule && (
            <div className="mt-2">
              <p className="mb-1 text-xs uppercase tracking-wide text-zinc-400">Member rule (organization events)</p>
              <RuleTree node={en.member_rule} />
            </div>
          )}
        </div>
      ))}
      <div>
        <p className="text-xs uppercase tracking-wide text-zinc-400">Past entries</p>
        {x.entries.length === 0 ? (
          <p className="text-zinc-500">Never entered.</p>
        ) : (
          <ul className="text-zinc-600">
            {x.entries.map((e) => (
              <li key={e.id}>
                {formatDateTime(e.entered_at)} by <span className="font-mono">{e.event_name ?? "an erased event"}</span>
                {e.exited_at ? ` · exited ${formatDateTime(e.exited_at)}` : " · active"}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
