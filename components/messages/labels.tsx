import { Badge } from "@/components/ui/states";
import type { BroadcastState, MessageState } from "./types";

const MESSAGE_TONES = { queued: "indigo", sent: "green", skipped: "amber", failed: "red" } as const;
const BROADCAST_TONES = { scheduled: "indigo", sending: "amber", done: "green", cancelled: "zinc" } as const;

export const MESSAGE_STATES: MessageState[] = ["queued", "sent", "skipped", "failed"];

export function MessageStateBadge({ state }: { state: MessageState }) {
  return <Badge tone={MESSAGE_TONES[state] ?? "zinc"}>{state}</Badge>;
}

export function BroadcastStateBadge({ state }: { state: BroadcastState }) {
  return <Badge tone={BROADCAST_TONES[state] ?? "zinc"}>{state}</Badge>;
}

/** Why a message was not sent, in words; an unknown reason (a provider's own) is shown as it came. */
const REASONS: Record<string, string> = {
  unsubscribed: "The user unsubscribed from the template's subscription group.",
  channel_opted_out: "The user opted out of this channel (an SMS STOP, or every e-mail).",
  frequency_cap: "The project's frequency cap for this channel was reached.",
  not_opted_in: "The group needs an explicit opt-in, and the user has not opted in.",
  no_contact: "The user has no address for this channel (no e-mail, or no phone number).",
  quiet_hours: "Waiting for the end of the project's quiet hours in the user's time zone.",
  cancelled: "The broadcast was cancelled before this message was sent.",
  suppressed: "The address is on the project's suppression list (it bounced, complained, or was added by hand).",
};

const DELIVERY_TONES = { delivered: "green", deferred: "amber", bounced: "red", complained: "red" } as const;

export function DeliveryBadge({ state, type }: { state: keyof typeof DELIVERY_TONES; type?: string | null }) {
  return <Badge tone={DELIVERY_TONES[state] ?? "zinc"}>{type ? `${state} (${type})` : state}</Badge>;
}

export function reasonText(reason: string | null): string | null {
  if (!reason) return null;
  return REASONS[reason] ?? reason;
}
