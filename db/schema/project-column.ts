import { uuid } from "drizzle-orm/pg-core";
import { projects } from "./console";

/** A project-scoped table's `project_id`: required, and its rows go with their project. */
export const projectIdColumn = () =>
  uuid()
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" });
