import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { ADMIN_URL } from "../../scripts/test/database";
import { BUYERS, FAN_COHORT, SCHEDULE_NAME } from "./load";

/** An empty database (no migrations: the processes started on it apply them) and a way to drop it. */
export async function emptyDatabase(prefix: string) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 15 });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      if (process.env.KEEP_TEST_DB) return;
      const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 15 });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

async function call(base: string, key: string, method: string, path: string, body: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * The project the load runs in: an admin key (unthrottled) for setup and load, a support key with a small
 * budget for the shared-limit probe, the buyers and the fan-out cohort, a dynamic list and a journey that
 * listen for Purchased, and the schedule the load assigns. Made through the API of the first web.
 */
export async function setUpProject(databaseUrl: string, web: string, limited = { perSecond: 2, burst: 20 }) {
  process.env.DATABASE_URL = databaseUrl;
  // A machine shared with other test runs can be slow to accept a connection.
  process.env.DATABASE_CONNECT_TIMEOUT ??= "15";
  const { getDb } = await import("../../db/client");
  const { createProjectWithOwner } = await import("../../lib/projects/create-project");
  const { createApiKey } = await import("../../lib/access/api-keys");
  const db = getDb();
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "scale", projectName: "scale", ownerEmail: `scale-${randomBytes(4).toString("hex")}@example.com` },
  );
  const projectId = project.id;
  const key = (
    await createApiKey(
      { db },
      { projectId, name: "load", role: "admin", rateLimitPerSecond: 1_000_000, rateLimitBurst: 1_000_000 },
    )
  ).secret;
  const limitedKey = (
    await createApiKey(
      { db },
      {
        projectId,
        name: "limited",
        role: "support",
        rateLimitPerSecond: limited.perSecond,
        rateLimitBurst: limited.burst,
      },
    )
  ).secret;
  const client = `${web}/api/client/projects/${projectId}`;
  const admin = `${web}/api/admin/projects/${projectId}`;
  const users = [
    ...Array.from({ length: BUYERS }, (_, i) => ({
      identifier: [{ external_id: `b-${i}` }],
      email: `b${i}@example.com`,
      data: { cohort: "buyers" },
    })),
    ...Array.from({ length: FAN_COHORT }, (_, i) => ({
      identifier: [{ external_id: `f-${i}` }],
      data: { cohort: "fan" },
    })),
  ];
  await call(client, key, "POST", "/users/batch", users);
  const list = await call(admin, key, "POST", "/lists", {
    name: "Buyers",
    kind: "dynamic",
    rules: { event: { name: "Purchased", at_least: 1 } },
  });
  const journey = await call(admin, key, "POST", "/journeys", {
    name: "Every purchase",
    allow_multiple_entries: true,
    allow_concurrent_runs: true,
    entrances: [{ kind: "event", event_name: "Purchased", data_key: "order" }],
  });
  await call(admin, key, "POST", "/schedules", { name: SCHEDULE_NAME, type: "single" });
  return { projectId, key, limitedKey, listId: list.id as string, journeyId: journey.id as string };
}

/**
 * One request per route the load uses, on every web: a process loads a route's code and opens its
 * database connections on first use, which on a busy machine can take longer than a client waits.
 */
export async function warmUp(webs: string[], projectId: string, key: string) {
  for (const [i, web] of webs.entries()) {
    const client = `${web}/api/client/projects/${projectId}`;
    await call(client, key, "POST", "/users", { identifier: [{ external_id: `warm-${i}` }] });
    await call(client, key, "POST", "/users/batch", [{ identifier: [{ external_id: `warm-${i}` }] }]);
    await call(client, key, "POST", "/users/events", [
      { name: "Warm", identifier: [{ external_id: `warm-${i}` }], data: {} },
    ]);
    await call(client, key, "POST", "/users/scheduled", {
      name: "warm",
      identifier: [{ external_id: `warm-${i}` }],
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await call(`${web}/api/admin/projects/${projectId}`, key, "GET", "/users?limit=1", undefined);
    await fetch(`${web}/api/health/ready`).then((r) => r.arrayBuffer());
  }
}

export async function closeTestDb() {
  const { closeDatabase } = await import("../../db/client");
  await closeDatabase();
}
