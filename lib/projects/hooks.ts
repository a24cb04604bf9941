import type { Tx } from "@/db/client";
import type { Project } from "@/db/schema";

/** Work in the transaction that creates a project (the schedules issue seeds the built-in `anniversary` definition here). */
export async function onProjectCreated(_tx: Tx, _project: Project): Promise<void> {}
