"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import type { Template } from "@/components/messages/types";
import { QueryState } from "@/components/ui/query-state";
import { controlClass } from "@/components/ui/states";
import type { Report } from "@/lib/reports/schemas";
import { ReportView } from "./report-view";

/** The periods offered, in days back from the current hour; 0 is every send of the template. */
const PERIODS = [
  { days: 1, label: "Last 24 hours" },
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
  { days: 0, label: "All time" },
] as const;
const HOUR = 3_600_000;

/**
 * A template's performance: what every send of it did (journeys, broadcasts and the send API alike),
 * over a period kept in the address (`?days=7`) so a link shares it. The report counts the hours of the
 * period; `since` starts at an hour's boundary, so the query's key stays the same within the hour.
 */
export function TemplateReportPage({ templateId }: { templateId: string }) {
  const project = useProject();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const asked = Number(params.get("days") ?? 30);
  const days = PERIODS.some((p) => p.days === asked) ? asked : 30;
  const since = days ? new Date(Math.floor(Date.now() / HOUR) * HOUR - days * 24 * HOUR).toISOString() : null;
  const t = useQuery({
    queryKey: ["template", project.id, templateId],
    queryFn: () => apiFetch<Template>(adminPath(project.id, `/templates/${templateId}`)),
  });
  const q = useQuery({
    queryKey: ["template-report", project.id, templateId, since],
    queryFn: () =>
      apiFetch<Report>(
        adminPath(project.id, `/templates/${templateId}/report${since ? `?since=${encodeURIComponent(since)}` : ""}`),
      ),
    refetchInterval: 30_000,
  });
  const base = `/projects/${project.id}`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <Link href={`${base}/templates/${templateId}`} className="text-sm text-zinc-500 hover:text-zinc-800">
            ← {t.data?.name ?? "Template"}
          </Link>
          <h1 className="mt-2 text-xl font-semibold tracking-tight text-zinc-900">
            {t.data ? `Performance: ${t.data.name}` : "Template performance"}
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-zinc-500">
            Every message of this template, from journeys, broadcasts and the send API, counted by the hour it happened
            in. Conversions are counted for broadcasts and journeys with a goal.
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm text-zinc-700">
          Period
          <select
            className={controlClass}
            value={days}
            onChange={(e) => {
              const next = new URLSearchParams(params);
              next.set("days", e.target.value);
              router.replace(`${pathname}?${next}`);
            }}
          >
            {PERIODS.map((p) => (
              <option key={p.days} value={p.days}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryState q={q} what="the template's performance">
        {(report) => (
          <ReportView
            report={report}
            empty="Nothing sent with this template in this period."
            messagesHref={(event) =>
              `${base}/messages?template_id=${templateId}${event === "sent" ? "&state=sent" : `&event=${event}`}`
            }
          />
        )}
      </QueryState>
    </div>
  );
}
