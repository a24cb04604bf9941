import type { Tx } from "@/db/client";
import type { User } from "@/db/schema";

/**
 * Work that must happen in the same transaction that creates users (the schedules issue adds the
 * built-in `anniversary` assignment here). Every path that creates users calls it, singly or in bulk.
 */
export async function onUsersCreated(_tx: Tx, _projectId: string, _users: User[]): Promise<void> {}
