import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import type { Db } from "../../db/client";
import * as schema from "../../db/schema";
import { systemContext, type ProjectContext } from "../../lib/access/context";
import { createProjectWithOwner } from "../../lib/projects/create-project";

/**
 * For tests that call verbs in process on a database of their own: a drizzle client over `sql` and a new
 * project in it, as the system context the worker would use.
 */
export async function projectIn(sql: postgres.Sql): Promise<{ db: Db; ctx: ProjectContext<Db> }> {
  const db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  const { project } = await createProjectWithOwner(
    { db },
    {
      orgName: "o",
      projectName: "p",
      ownerEmail: `o-${crypto.randomUUID()}@example.com`,
    },
  );
  return { db, ctx: systemContext(db, project.id) };
}
