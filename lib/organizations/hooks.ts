import type { DbOrTx } from "@/db/client";
import type { Organization } from "@/db/schema";
import { assignAnniversaries } from "@/lib/schedules/anniversary";

/** Work in the transaction that creates organizations: their built-in `anniversary` assignment. */
export async function onOrganizationsCreated(tx: DbOrTx, projectId: string, organizations: Organization[]): Promise<void> {
  await assignAnniversaries(tx, "organization", projectId, organizations);
}
