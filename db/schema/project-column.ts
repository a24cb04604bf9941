import { foreignKey, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { projects } from "./console";

/** A project-scoped table's `project_id`: required, and its rows go with their project. */
export const projectIdColumn = () =>
  uuid()
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" });

/**
 * A child row's `(project_id, <parent>_id)` pointing at its parent's `(project_id, id)`: the parent is always
 * in the row's own project, and the row goes with it.
 */
export const belongsTo = (
  projectId: AnyPgColumn,
  parentId: AnyPgColumn,
  parent: { projectId: AnyPgColumn; id: AnyPgColumn },
) => foreignKey({ columns: [projectId, parentId], foreignColumns: [parent.projectId, parent.id] }).onDelete("cascade");
