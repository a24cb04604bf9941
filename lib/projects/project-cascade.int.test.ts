import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { systemContext } from "../access/context";
import { organizationInput } from "../organizations/schemas";
import { upsertOrganizations } from "../organizations/upsert-organization";
import { stopBoss } from "../queue/boss";
import { userInput } from "../users/schemas";
import { upsertUsers } from "../users/upsert-user";
import { createTestDatabase } from "../../scripts/test/database";
import { createProjectWithOwner } from "./create-project";

/**
 * users, organizations and events have no foreign key to projects (migration 0021): a deleted project's
 * records and events go by a statement-level trigger instead, and with them everything that hangs on the
 * records (identifiers, schedule assignments and firings); another project's rows stay.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase("relay_project_cascade");
  // The batches hand their events to pg-boss, whose sender connects to DATABASE_URL: this database.
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
}, 60_000);

afterAll(async () => {
  await stopBoss(2_000);
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const TABLES = [
  "users",
  "user_identifiers",
  "organizations",
  "organization_identifiers",
  "events",
  "schedule_assignments",
  "schedule_firings",
] as const;

async function countsOf(projectId: string) {
  const counts: Record<string, number> = {};
  for (const t of TABLES)
    counts[t] = (await sql`select count(*)::int as n from ${sql(t)} where project_id = ${projectId}`)[0]!.n;
  return counts;
}

async function populated() {
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "o", projectName: "p", ownerEmail: `o-${crypto.randomUUID()}@example.com` },
  );
  const ctx = systemContext(db, project.id);
  await upsertUsers(
    ctx,
    [1, 2, 3].map((i) => userInput.parse({ identifier: [{ external_id: `u${i}` }], data: { i } })),
  );
  await upsertOrganizations(ctx, [organizationInput.parse({ identifier: [{ external_id: "acme" }], name: "Acme" })]);
  return project.id;
}

describe("deleting a project", () => {
  it("deletes its users, organizations and events and what hangs on them, and nothing of another project", async () => {
    const doomed = await populated();
    const kept = await populated();
    const before = await countsOf(doomed);
    // Each table really had rows of the doomed project, so an empty count below means deleted.
    expect(Object.entries(before).filter(([, n]) => n === 0)).toEqual([]);

    await sql`delete from projects where id = ${doomed}`;

    expect(await countsOf(doomed)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    expect(await countsOf(kept)).toEqual(before);
  });
});
