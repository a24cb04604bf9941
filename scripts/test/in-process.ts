import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import type { Db } from "../../db/client";
import * as schema from "../../db/schema";
import { systemContext, type ProjectContext } from "../../lib/access/context";
import { createProjectWithOwner } from "../../lib/projects/create-project";

/** A statement drizzle sent, for tests that check the plans of what the real functions send. */
export type SentQuery = { query: string; params: unknown[] };

/**
 * For tests that call verbs in process on a database of their own: a drizzle client over `sql` and a new
 * project in it, as the system context the worker would use. With `sent`, every statement the client
 * sends is appended to it.
 */
export async function projectIn(
  sql: postgres.Sql,
  { sent }: { sent?: SentQuery[] } = {},
): Promise<{ db: Db; ctx: ProjectContext<Db> }> {
  const logger = sent && { logQuery: (query: string, params: unknown[]) => void sent.push({ query, params }) };
  const db = drizzle(sql, { schema, casing: "snake_case", ...(logger ? { logger } : {}) }) as unknown as Db;
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "o", projectName: "p", ownerEmail: `o-${crypto.randomUUID()}@example.com` },
  );
  return { db, ctx: systemContext(db, project.id) };
}
