import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { systemContext } from "../access/context";
import { inRetryingTransaction } from "../db/retry";
import { organizationInput } from "../organizations/schemas";
import { upsertOrganizations } from "../organizations/upsert-organization";
import { createProjectWithOwner } from "../projects/create-project";
import { stopBoss } from "../queue/boss";
import { userInput } from "../users/schemas";
import { upsertUsers } from "../users/upsert-user";
import { createTestDatabase } from "../../scripts/test/database";
import { upsertRecords } from "./upsert-records";

/**
 * Identifiers have no foreign key to their record (migration 0022): deleting records deletes their
 * identifiers by a statement-level trigger, and a writer attaching a pair to an existing record holds
 * that record, so a concurrent delete never leaves a pair naming a record that is gone.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let db: Db;
let projectId: string;

beforeAll(async () => {
  database = await createTestDatabase("relay_identifiers_cascade");
  // The batches hand their events to pg-boss, whose sender connects to DATABASE_URL: this database.
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 4, onnotice: () => {} });
  db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  ({
    project: { id: projectId },
  } = await createProjectWithOwner({ db }, { orgName: "o", projectName: "p", ownerEmail: "o@example.com" }));
}, 60_000);

afterAll(async () => {
  await stopBoss(2_000);
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const ownerOf = async (table: "user_identifiers" | "organization_identifiers", externalId: string) => {
  const column = table === "user_identifiers" ? "user_id" : "organization_id";
  const rows =
    await sql`select ${sql(column)} as id from ${sql(table)} where project_id = ${projectId} and external_id = ${externalId}`;
  return rows.map((r) => r.id as string);
};
/** Pairs naming a record that does not exist. */
const orphans = async () => {
  const [row] = await sql`
    select (select count(*) from user_identifiers i where not exists (select 1 from users u where u.project_id = i.project_id and u.id = i.user_id))::int
         + (select count(*) from organization_identifiers i where not exists (select 1 from organizations o where o.project_id = i.project_id and o.id = i.organization_id))::int as n`;
  return row!.n as number;
};

describe("identifiers without a foreign key", () => {
  it("go with their user or organization when it is deleted, and only theirs", async () => {
    const ctx = systemContext(db, projectId);
    const { users } = await upsertUsers(ctx, [
      userInput.parse({ identifier: [{ external_id: "gone-1" }, { source: "crm", external_id: "gone-1-crm" }] }),
      userInput.parse({ identifier: [{ external_id: "kept-1" }] }),
    ]);
    const { organizations } = await upsertOrganizations(ctx, [
      organizationInput.parse({ identifier: [{ external_id: "gone-org" }] }),
      organizationInput.parse({ identifier: [{ external_id: "kept-org" }] }),
    ]);
    expect(await ownerOf("user_identifiers", "gone-1-crm")).toEqual([users[0]!.id]);

    await sql`delete from users where project_id = ${projectId} and id = ${users[0]!.id}`;
    await sql`delete from organizations where project_id = ${projectId} and id = ${organizations[0]!.id}`;

    expect(await ownerOf("user_identifiers", "gone-1")).toEqual([]);
    expect(await ownerOf("user_identifiers", "gone-1-crm")).toEqual([]);
    expect(await ownerOf("organization_identifiers", "gone-org")).toEqual([]);
    expect(await ownerOf("user_identifiers", "kept-1")).toEqual([users[1]!.id]);
    expect(await ownerOf("organization_identifiers", "kept-org")).toEqual([organizations[1]!.id]);
    expect(await orphans()).toBe(0);
  });

  it("an event attaching a new pair to a user deleted meanwhile waits, retries, and leaves no pair behind", async () => {
    const ctx = systemContext(db, projectId);
    const { users } = await upsertUsers(ctx, [userInput.parse({ identifier: [{ external_id: "race-known" }] })]);
    const doomed = users[0]!.id;

    // A deletion in flight: the user row is deleted (and its identifiers with it) but not yet committed.
    let commit!: () => void;
    const released = new Promise<void>((r) => (commit = r));
    let deleting!: () => void;
    const deleted = new Promise<void>((r) => (deleting = r));
    const deletion = sql.begin(async (tx) => {
      await tx`delete from users where project_id = ${projectId} and id = ${doomed}`;
      deleting();
      await released;
    });
    await deleted;

    // The drain's resolution (`first`): the known pair names the doomed user, the new one is attached to it.
    let done = false;
    const attaching = inRetryingTransaction(db, (tx) =>
      upsertRecords(systemContext(tx, projectId), {
        kind: "user",
        items: [
          {
            identifier: [
              { source: "default", external_id: "race-known" },
              { source: "crm", external_id: "race-new" },
            ],
          },
        ],
        conflicts: "first",
      }),
    ).finally(() => (done = true));
    // It must wait for the deletion (as the foreign key's check did) rather than write the pair at once.
    const until = Date.now() + 10_000;
    let waiting = false;
    while (!done && !waiting && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      waiting =
        (await sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
          .length > 0;
    }
    expect(waiting).toBe(true);
    commit();
    await deletion;
    const attached = await attaching;

    // The retry found the known pair gone, so the event's pairs made a new user, and nothing names the doomed one.
    expect(attached.ids[0]).not.toBe(doomed);
    expect(attached.created[0]).toBe(true);
    expect(await ownerOf("user_identifiers", "race-known")).toEqual([attached.ids[0]]);
    expect(await ownerOf("user_identifiers", "race-new")).toEqual([attached.ids[0]]);
    expect(await orphans()).toBe(0);
  });
});
