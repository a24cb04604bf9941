import { assignAnniversaries } from "@/lib/schedules/anniversary";
import type { Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Work that must happen in the transaction that creates users or organizations: their built-in
 * `anniversary` assignment. Every creation goes through lib/identity/upsert-records.ts, which calls this
 * once per batch, however many records it created.
 */
export async function onRecordsCreated(ctx: ProjectContext, kind: Kind, records: { id: string; createdAt: Date }[]): Promise<void> {
  await assignAnniversaries(ctx, kind, records);
}
