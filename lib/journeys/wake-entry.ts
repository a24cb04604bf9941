import type { ProjectContext } from "@/lib/access/context";

/**
 * Called by lib/messages in the transaction that gives a message caused by a journey step its final
 * state (sent, skipped, failed): makes the entry due now if it still waits at that step, so the journeys'
 * due claim moves it on and records the outcome in its path (reading the message row). The journeys
 * send step owns the real body; until it lands this does nothing. Must not import lib/messages.
 */
export async function wakeEntryForMessage(
  _ctx: ProjectContext,
  _input: { entryId: string; stepKey: string },
): Promise<void> {}
