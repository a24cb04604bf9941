/** Names the service emits itself; clients may not send any name under these prefixes. */
export const SYSTEM_EVENT_PREFIXES = [
  "user.",
  "organization.",
  "list.",
  "link.",
  "scheduled.",
  "journey.",
  "message.",
] as const;

export function isSystemEventName(name: string): boolean {
  return SYSTEM_EVENT_PREFIXES.some((p) => name.startsWith(p));
}

export type SystemEventName =
  | "user.created"
  | "user.updated"
  | "organization.created"
  | "organization.updated"
  | "organization.user.added"
  | "organization.user.updated"
  | "organization.user.removed"
  | "list.user.added"
  | "list.user.removed"
  | "user.subscription.changed"
  | "link.clicked"
  | "message.opened"
  | "journey.user.entered"
  | "journey.user.exited"
  | "message.delivered"
  | "message.bounced"
  | "message.complained"
  | "user.suppression.removed"
  | `scheduled.${string}`;
