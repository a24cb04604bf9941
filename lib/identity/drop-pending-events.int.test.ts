import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import type { Db } from "../../db/client";
import type { ProjectContext } from "../access/context";
import { acceptEvents } from "../events/accept-events";
import { organizationEventBatch, userEventBatch } from "../events/schemas";
import { deleteOrganization } from "../organizations/delete-organization";
import { organizationInput } from "../organizations/schemas";
import { upsertOrganization } from "../organizations/upsert-organization";
import { drainIntake } from "../pipeline/drain-intake";
import { deleteUser } from "../users/delete-user";
import { userInput } from "../users/schemas";
import { upsertUser } from "../users/upsert-user";
import { stopBoss } from "../queue/boss";
import { createTestDatabase } from "../../scripts/test/database";
import { projectIn } from "../../scripts/test/in-process";

/*
 * A record deleted while events naming it still wait in the intake must stay deleted: the drain would
 * otherwise create it again from those events. A database of its own, with no worker: the test decides
 * when the drain runs, so the events are certainly pending at the delete.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let ctx: ProjectContext<Db>;

beforeAll(async () => {
  database = await createTestDatabase("relay_drop_pending");
  // The drain hands steps 2-4 to pg-boss, whose sender connects to DATABASE_URL: this database.
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  ({ ctx } = await projectIn(sql));
}, 60_000);

afterAll(async () => {
  await stopBoss(2_000);
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const usersNamed = async (externalId: string) =>
  (
    await sql`select count(*)::int as n from user_identifiers where project_id = ${ctx.projectId} and external_id = ${externalId}`
  )[0]!.n;
const eventsOf = async (name: string) =>
  (await sql`select count(*)::int as n from events where project_id = ${ctx.projectId} and name = ${name}`)[0]!.n;

describe("deleting a record whose events are still in the intake", () => {
  it("a deleted user is not created again when its pending events are drained; other users' events still are", async () => {
    await upsertUser(
      ctx,
      userInput.parse({ identifier: [{ external_id: "gone" }, { source: "crm", external_id: "g-1" }], data: {} }),
    );
    // One event by each identifier of the user, one naming a stranger.
    await acceptEvents(ctx, {
      kind: "user",
      events: userEventBatch.parse([
        { name: "Clicked", identifier: [{ source: "crm", external_id: "g-1" }], data: {} },
        { name: "Clicked", identifier: [{ external_id: "gone" }, { external_id: "new-alias" }], data: {} },
        { name: "Clicked", identifier: [{ external_id: "stranger" }], data: {} },
      ]),
    });
    await deleteUser(ctx, [{ source: "default", external_id: "gone" }]);
    while (await drainIntake(ctx, { limit: 100 }));
    expect(await usersNamed("gone")).toBe(0);
    expect(await usersNamed("g-1")).toBe(0);
    expect(await usersNamed("new-alias")).toBe(0);
    expect(await usersNamed("stranger")).toBe(1);
    expect(await eventsOf("Clicked")).toBe(1);
  });

  it("a deleted organization is not created again either", async () => {
    await upsertOrganization(ctx, organizationInput.parse({ identifier: [{ external_id: "acme" }], name: "Acme" }));
    await acceptEvents(ctx, {
      kind: "organization",
      events: organizationEventBatch.parse([{ name: "Renewed", identifier: [{ external_id: "acme" }] }]),
    });
    await deleteOrganization(ctx, { identifier: [{ source: "default", external_id: "acme" }] });
    while (await drainIntake(ctx, { limit: 100 }));
    const [row] =
      await sql`select count(*)::int as n from organization_identifiers where project_id = ${ctx.projectId} and external_id = 'acme'`;
    expect(row!.n).toBe(0);
    expect(await eventsOf("Renewed")).toBe(0);
  });
});
