"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import type { Broadcast } from "@/components/messages/types";
import { QueryPage } from "@/components/ui/query-state";
import type { BroadcastReport } from "@/lib/reports/schemas";
import { ReportView } from "./report-view";
import { VariantsTable } from "./variants-table";

/** A broadcast's report: what its messages did, refreshed every 15 seconds while it is read. */
export function BroadcastReportPage({ broadcastId }: { broadcastId: string }) {
  const project = useProject();
  const b = useQuery({
    queryKey: ["broadcast", project.id, broadcastId],
    queryFn: () => apiFetch<Broadcast>(adminPath(project.id, `/broadcasts/${broadcastId}`)),
  });
  const q = useQuery({
    queryKey: ["broadcast-report", project.id, broadcastId],
    queryFn: () => apiFetch<BroadcastReport>(adminPath(project.id, `/broadcasts/${broadcastId}/report`)),
    refetchInterval: 15_000,
  });
  const goal = b.data?.goal;
  return (
    <QueryPage
      title={b.data ? `Report: ${b.data.name}` : "Broadcast report"}
      description={
        goal
          ? `A conversion is a user's first ${goal.event} within ${goal.within} after the broadcast's message.`
          : "This broadcast has no goal: conversions are not counted."
      }
      q={q}
      what="the report"
    >
      {(report) => (
        <div className="space-y-6">
          <ReportView
            report={report}
            messagesHref={(event) =>
              `/projects/${project.id}/messages?broadcast_id=${broadcastId}${event === "sent" ? "&state=sent" : `&event=${event}`}`
            }
          />
          {report.test ? <VariantsTable test={report.test} /> : null}
        </div>
      )}
    </QueryPage>
  );
}
