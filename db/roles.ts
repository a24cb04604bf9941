/**
 * Project roles, lowest first: the order is the hierarchy (lib/access/roles.ts). A plain constant, so the
 * console's browser code can use roles without pulling in drizzle; the `project_role` pgEnum is built
 * from it. It lives in db/ because db/ must not import lib/.
 */
export const PROJECT_ROLES = ["support", "client", "editor", "admin"] as const;

export type ProjectRole = (typeof PROJECT_ROLES)[number];
