import type { Role } from "./roles";
import { roleAtLeast } from "./roles";

/**
 * The one permission table: each action names the lowest role that may do it. API keys and console
 * sessions resolve to a role and are checked against this same table.
 */
export const PERMISSIONS = {
  // ingestion (client API)
  "users.write": "client",
  "organizations.write": "client",
  "events.write": "client",
  "schedules.assign": "client",
  "subscriptions.write": "client",
  "imports.write": "client",
  // the transactional send API: one message of a template to one user
  "messages.send": "client",
  // reads across the project (admin API)
  "project.read": "support",
  "users.read": "support",
  "organizations.read": "support",
  "events.read": "support",
  "schema.read": "support",
  "schedules.read": "support",
  "lists.read": "support",
  "journeys.read": "support",
  "destinations.read": "support",
  "subscriptions.read": "support",
  "imports.read": "support",
  "messages.read": "support",
  "suppressions.read": "support",
  // configuration
  "schedules.write": "editor",
  "lists.write": "editor",
  "journeys.write": "editor",
  "links.write": "editor",
  "destinations.write": "editor",
  "templates.write": "editor",
  "documents.write": "editor",
  "broadcasts.write": "editor",
  "suppressions.write": "editor",
  // mail to an address that bounced or complained may spend the sender's reputation again
  "suppressions.remove": "admin",
  // re-sends a window of past events to a receiver: bounded, and only by administrators
  "destinations.replay": "admin",
  "subscriptions.configure": "admin",
  // where messages leave: credentials of an SMTP server or an SMS account
  "providers.write": "admin",
  // the project itself: name, event retention (a shorter retention deletes events)
  "project.configure": "admin",
  // destructive operations and access management
  "users.delete": "admin",
  "organizations.delete": "admin",
  "members.read": "support",
  "members.write": "admin",
  "invites.read": "admin",
  "invites.write": "admin",
  "keys.read": "admin",
  "keys.write": "admin",
  // the API request log holds failed requests' bodies
  "requests.read": "admin",
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return roleAtLeast(role, PERMISSIONS[permission]);
}
