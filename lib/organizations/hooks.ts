import type { Tx } from "@/db/client";
import type { Organization } from "@/db/schema";

/** Work in the transaction that creates organizations (the schedules issue adds their `anniversary` assignment). */
export async function onOrganizationsCreated(_tx: Tx, _projectId: string, _organizations: Organization[]): Promise<void> {}
