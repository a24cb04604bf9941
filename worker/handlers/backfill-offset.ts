import { getDb } from "@/db/client";
import type { JobPayload } from "@/lib/queue/jobs";
import { backfillOffset } from "@/lib/schedules/backfill-offset";

/** Resumable: each page commits its cursor, so a retried job continues where the last one stopped. */
export async function handleBackfillOffset(jobs: JobPayload<"schedules.backfill-offset">[]): Promise<void> {
  for (const job of jobs) await backfillOffset(getDb(), job.projectId, job.offsetId);
}
