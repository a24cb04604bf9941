import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import { closeDatabase, getDb } from "../../db/client";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { upsertOrganization } from "../../lib/organizations/upsert-organization";
import { upsertUser } from "../../lib/users/upsert-user";
import { createTestDatabase } from "../../scripts/test/database";
import { systemContext } from "@/lib/access/context";

/**
 * Counts the statements (round trips: BEGIN and COMMIT included) one single upsert sends, through the
 * postgres.js `debug` hook. `npx tsx bench/tools/count-statements.ts`.
 */
const db = await createTestDatabase("relay_count");
process.env.DATABASE_URL = db.url;
let count = 0;
let log: string[] = [];
const client = postgres(db.url, {
  max: 1,
  onnotice: () => {},
  debug: (_c, query) => {
    count++;
    log.push(query.replace(/\s+/g, " ").slice(0, 90));
  },
});
const counted = drizzle(client, { schema, casing: "snake_case" });
try {
  const { project } = await createProjectWithOwner(
    { db: getDb() },
    { orgName: "count", projectName: "count", ownerEmail: "count@example.com" },
  );
  const cases: [string, () => Promise<unknown>][] = [
    [
      "POST /users, new user (first statement on the connection: + the driver's type fetch)",
      () =>
        upsertUser(systemContext(counted, project.id), {
          identifier: [{ source: "default", external_id: "u0" }],
          email: "a@example.com",
          data: { plan: "free" },
        }),
    ],
    [
      "POST /users, new user",
      () =>
        upsertUser(systemContext(counted, project.id), {
          identifier: [{ source: "default", external_id: "u1" }],
          email: "b@example.com",
          data: { plan: "free" },
        }),
    ],
    [
      "POST /users, existing user, data change",
      () =>
        upsertUser(systemContext(counted, project.id), {
          identifier: [{ source: "default", external_id: "u1" }],
          data: { plan: "pro" },
        }),
    ],
    [
      "POST /users, existing user, new identifier",
      () =>
        upsertUser(systemContext(counted, project.id), {
          identifier: [
            { source: "default", external_id: "u1" },
            { source: "crm", external_id: "c1" },
          ],
        }),
    ],
    [
      "POST /users, conflict (409)",
      () =>
        upsertUser(systemContext(counted, project.id), {
          identifier: [
            { source: "default", external_id: "u0" },
            { source: "crm", external_id: "c1" },
          ],
        }).catch(() => {}),
    ],
    [
      "POST /organizations, new organization",
      () =>
        upsertOrganization(systemContext(counted, project.id), {
          identifier: [{ source: "default", external_id: "o1" }],
          name: "Acme",
        }),
    ],
    [
      "POST /organizations, existing, name change",
      () =>
        upsertOrganization(systemContext(counted, project.id), {
          identifier: [{ source: "default", external_id: "o1" }],
          name: "Acme Inc",
        }),
    ],
  ];
  for (const [name, run] of cases) {
    count = 0;
    log = [];
    await run();
    console.log(`${String(count).padStart(3)}  ${name}`);
    if (process.env.VERBOSE) for (const l of log) console.log(`       ${l}`);
  }
} finally {
  await client.end();
  await closeDatabase();
  await db.drop();
}
