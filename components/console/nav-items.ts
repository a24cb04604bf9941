import type { Role } from "@/lib/access/roles";

export interface NavItem {
  /** Path under /projects/{id}. */
  path: string;
  label: string;
  section: "Data" | "Automation" | "Messaging" | "Settings";
  /** Hidden from roles below this (the API refuses them anyway). */
  minRole?: Role;
}

/**
 * The project navigation. Add a page by adding a line here (e.g. a subscriptions page under "Data");
 * the shell groups items by section in this order.
 */
export const NAV_ITEMS: NavItem[] = [
  { path: "", label: "Overview", section: "Data" },
  { path: "/users", label: "Users", section: "Data" },
  { path: "/organizations", label: "Organizations", section: "Data" },
  { path: "/imports", label: "Imports", section: "Data", minRole: "client" },
  { path: "/events", label: "Live events", section: "Data" },
  { path: "/schema", label: "Schema", section: "Data" },
  { path: "/subscriptions", label: "Subscriptions", section: "Data" },
  { path: "/schedules", label: "Schedules", section: "Automation" },
  { path: "/lists", label: "Lists", section: "Automation" },
  { path: "/journeys", label: "Journeys", section: "Automation" },
  { path: "/templates", label: "Templates", section: "Messaging" },
  { path: "/broadcasts", label: "Broadcasts", section: "Messaging" },
  { path: "/messages", label: "Messages", section: "Messaging" },
  { path: "/suppressions", label: "Suppressions", section: "Messaging" },
  { path: "/settings", label: "Project settings", section: "Settings" },
  { path: "/members", label: "Members", section: "Settings" },
  { path: "/keys", label: "API keys", section: "Settings", minRole: "admin" },
  { path: "/destinations", label: "Destinations", section: "Settings" },
  { path: "/providers", label: "Providers", section: "Settings", minRole: "admin" },
  { path: "/requests", label: "Request log", section: "Settings", minRole: "admin" },
];

export const NAV_SECTIONS: NavItem["section"][] = ["Data", "Automation", "Messaging", "Settings"];
