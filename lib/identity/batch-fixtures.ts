import { beforeAll } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

/*
 * The set-up of the identity batch test files (user-batches, organization-batches, batch-answers,
 * new-records): one project per file, in the database of its own each file opens first with
 * ownDatabaseForFile.
 */

// `let`: batchProjectForFile() sets it for the calling file (importers see the new value).
export let p: TestProject;

/** Creates the calling file's project; call it right after ownDatabaseForFile. */
export function batchProjectForFile(): void {
  beforeAll(async () => {
    p = await createTestProject("identity-batches");
  });
}

export const post = (path: string, body: unknown) => api("POST", p.client(path), { key: p.keys.client, body });
export const idOf = async (table: "user_identifiers" | "organization_identifiers", externalId: string) => {
  const col = table === "user_identifiers" ? sql`user_id` : sql`organization_id`;
  const rows =
    await sql`select ${col} as id from ${sql(table)} where project_id = ${p.projectId} and external_id = ${externalId}`;
  return rows[0]?.id as string | undefined;
};
export const anniversaries = async (column: "user_id" | "organization_id", ids: string[]) => {
  const [row] = await sql`
    select count(*)::int as n from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
    where a.project_id = ${p.projectId} and s.name = 'anniversary' and ${sql(column)} = any(${ids}::uuid[])`;
  return row!.n as number;
};
