import type { Tx } from "@/db/client";
import type { Organization } from "@/db/schema";

/** Work in the transaction that creates an organization (the schedules issue adds its `anniversary` assignment). */
export async function onOrganizationCreated(_tx: Tx, _projectId: string, _organization: Organization): Promise<void> {}
