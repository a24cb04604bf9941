import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { createApiKey } from "../access/api-keys";
import { createProjectWithOwner } from "../projects/create-project";
import { createTestDatabase } from "../../scripts/test/database";
import { startNextServer } from "../../scripts/test/next-server";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

/*
 * The hourly `match` fan-out quota, with a quota of 5 deliveries, on a database, server and worker of their
 * own (a worker of the shared run, with the default quota, must not claim these fan-outs).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: Awaited<ReturnType<typeof startNextServer>>;
let worker: TestWorker;
let sql: postgres.Sql;
const keys: Record<string, { projectId: string; client: string; support: string }> = {};

beforeAll(async () => {
  database = await createTestDatabase("relay_quota");
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  for (const name of ["a", "b"]) {
    const { project } = await createProjectWithOwner(
      { db },
      { orgName: `quota-${name}`, projectName: name, ownerEmail: `o-${crypto.randomUUID()}@example.com` },
    );
    const key = (role: "client" | "support") =>
      createApiKey({ db }, { projectId: project.id, name: role, role, rateLimitPerSecond: 1000, rateLimitBurst: 1000 });
    keys[name] = {
      projectId: project.id,
      client: (await key("client")).secret,
      support: (await key("support")).secret,
    };
  }
  server = await startNextServer({ DATABASE_URL: database.url, DATABASE_CONNECT_TIMEOUT: "30" });
  worker = await startWorker(database.url, {
    MATCH_FANOUT_QUOTA_PER_HOUR: "5",
    WORKER_PORT: "0",
    DATABASE_CONNECT_TIMEOUT: "30",
  });
}, 400_000);

afterAll(async () => {
  await worker?.stop();
  await server?.stop();
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const call = (project: string, role: "client" | "support", method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/api/${role === "client" ? "client" : "admin"}/projects/${keys[project]!.projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${keys[project]![role]}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const users = async (project: string, segment: string, n: number) => {
  for (let i = 0; i < n; i++)
    expect(
      (
        await call(project, "client", "POST", "/users", {
          identifier: [{ external_id: `${segment}-${i}` }],
          data: { segment },
        })
      ).status,
    ).toBe(201);
};
const fanout = async (project: string, name: string) =>
  waitFor(
    async () => {
      const list = await call(project, "support", "GET", "/events/fanouts");
      const f = list.body.data.find((x: { name: string }) => x.name === name);
      return f && f.state !== "running" && f;
    },
    60_000,
    `fan-out ${name} settled`,
  );
const delivered = async (project: string, name: string) =>
  Number(
    (await sql`select count(*) from events where project_id = ${keys[project]!.projectId} and name = ${name}`)[0]!
      .count,
  );

describe("match fan-out quota per project", () => {
  it("delivers within the quota, refuses the whole fan-out past it (visible with its reason), and counts per project", async () => {
    await users("a", "gold", 3);
    await users("a", "silver", 3);
    await users("b", "gold", 3);

    const sent = await call("a", "client", "POST", "/users/events", [
      { name: "First", data: {}, match: { segment: "gold" } },
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const first = await fanout("a", "First");
    expect(first).toMatchObject({ state: "finished", delivered: 3, planned: 3, refusal: null });

    // 3 used + 3 more would be 6 > 5: refused whole, nothing delivered, and the reason says so.
    expect(
      (await call("a", "client", "POST", "/users/events", [{ name: "Second", data: {}, match: { segment: "silver" } }]))
        .status,
    ).toBe(202);
    const second = await fanout("a", "Second");
    expect(second).toMatchObject({ state: "refused", delivered: 0, planned: 3 });
    expect(second.refusal).toMatch(/quota of 5 per hour/);
    expect(await delivered("a", "Second")).toBe(0);

    // What still fits is delivered: 3 + 2 = 5.
    await users("a", "bronze", 2);
    expect(
      (await call("a", "client", "POST", "/users/events", [{ name: "Third", data: {}, match: { segment: "bronze" } }]))
        .status,
    ).toBe(202);
    expect(await fanout("a", "Third")).toMatchObject({ state: "finished", delivered: 2 });

    // Another project has its own budget.
    expect(
      (await call("b", "client", "POST", "/users/events", [{ name: "First", data: {}, match: { segment: "gold" } }]))
        .status,
    ).toBe(202);
    expect(await fanout("b", "First")).toMatchObject({ state: "finished", delivered: 3 });
    expect(await delivered("b", "First")).toBe(3);

    // An hour later the budget is back.
    await sql`update event_fanouts set received_at = received_at - interval '61 minutes' where project_id = ${keys.a!.projectId}`;
    expect(
      (await call("a", "client", "POST", "/users/events", [{ name: "Later", data: {}, match: { segment: "silver" } }]))
        .status,
    ).toBe(202);
    expect(await fanout("a", "Later")).toMatchObject({ state: "finished", delivered: 3 });
  });
});
