import type { Actor } from "@/lib/access/context";
import type { SubscriptionSource } from "@/db/schema";

/** Console sessions and API keys are told apart in the history, with who did it. */
export function actorSource(
  actor: Actor,
  apiSource: SubscriptionSource,
): { source: SubscriptionSource; detail: Record<string, unknown> } {
  if (actor.kind === "admin")
    return { source: "console", detail: { admin_id: actor.adminId, admin_email: actor.email } };
  if (actor.kind === "api_key") return { source: apiSource, detail: { api_key_id: actor.keyId } };
  return { source: apiSource, detail: {} };
}
