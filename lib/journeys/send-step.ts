import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import type { Step } from "./step-schema";
import type { EntryInHand } from "./walk";

/** A `send` step's message: built on lib/messages (issue "Messages"). */
export async function sendStep(
  _ctx: ProjectContext,
  _input: { entry: EntryInHand; step: Step & { kind: "send" } },
): Promise<{ outcome: string } | { waitFor: string }> {
  throw new Invalid("send steps need messages");
}

export async function sentOutcome(_ctx: ProjectContext, _input: { messageId: string }): Promise<string | null> {
  return null;
}
