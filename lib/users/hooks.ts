import type { Tx } from "@/db/client";
import type { User } from "@/db/schema";

/**
 * Work that must happen in the same transaction that creates a user (the schedules issue adds the
 * built-in `anniversary` assignment here). Kept in one place so every path that creates a user runs it.
 */
export async function onUserCreated(_tx: Tx, _projectId: string, _user: User): Promise<void> {}
