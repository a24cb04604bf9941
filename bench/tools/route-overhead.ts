import { createApiKey } from "../../lib/access/api-keys";
import { createProjectWithOwner } from "../../lib/projects/create-project";
import { closeDatabase, getDb } from "../../db/client";
import { createTestDatabase } from "../../scripts/test/database";
import { stopBoss } from "../../lib/queue/boss";
import { eventsBody, newUsersBody } from "../bodies";

/**
 * Relay's own cost per request on POST /users, outside Next.js: the route's exported handler (withProject:
 * observed wrapper, pino access line, prom-client metrics, rate limits, key lookup, the upsert) called
 * in-process, sequentially. Prints wall time and CPU time per call, so the share of a request that is
 * Relay's (the rest is Next.js and node:http) can be read against the server's req/s.
 * `LOG_FORMAT=json npx tsx bench/tools/route-overhead.ts > /dev/null` prints to stderr (stdout takes the access
 * log); ONLY=401, create, batch (1,000 new users a call) or events (100 a call) runs one; CALLS sets the
 * count of items (default 5000: five batches, fifty event calls), and batch and events print per item too.
 * Under `node --cpu-prof` (`npx tsx --cpu-prof ...`) the profile names Relay's functions, unminified.
 */
const N = Number(process.env.CALLS ?? 5000);
const db = await createTestDatabase("relay_overhead");
process.env.DATABASE_URL = db.url;
const { POST } = await import("../../app/api/client/projects/[projectID]/users/route");
const { POST: BATCH } = await import("../../app/api/client/projects/[projectID]/users/batch/route");
const { POST: EVENTS } = await import("../../app/api/client/projects/[projectID]/users/events/route");
const { project } = await createProjectWithOwner(
  { db: getDb() },
  { orgName: "o", projectName: "o", ownerEmail: "o@example.com" },
);
const { secret } = await createApiKey(
  { db: getDb() },
  { projectId: project.id, name: "o", role: "admin", rateLimitPerSecond: 10_000_000, rateLimitBurst: 10_000_000 },
);
const url = `http://127.0.0.1/api/client/projects/${project.id}/users`;
const params = { params: Promise.resolve({ projectID: project.id }) };
const say = (m: string) => process.stderr.write(`${m}\n`);

async function measure(name: string, make: (i: number) => Request, handler = POST, unit = 1) {
  const n = Math.ceil(N / unit);
  for (let i = 0; i < Math.max(200 / unit, 5); i++) await handler(make(-i - 1), params as never); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const codes = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const res = await handler(make(i), params as never);
    codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
  }
  const wall = (performance.now() - t0) / n;
  const cpu = process.cpuUsage(cpu0);
  const per =
    unit === 1
      ? ""
      : ` (${((wall * 1000) / unit).toFixed(1)} / ${((cpu.user + cpu.system) / n / unit).toFixed(1)} µs per item)`;
  say(
    `${name.padEnd(44)} wall ${(wall * 1000).toFixed(0).padStart(5)} µs/call, CPU ${((cpu.user + cpu.system) / n).toFixed(0).padStart(5)} µs/call${per}  ${[...codes].map(([c, k]) => `${c}:${k}`).join(" ")}`,
  );
}

const body = (i: number) =>
  JSON.stringify({ identifier: [{ external_id: `x-${i}` }], email: `u${i}@example.com`, data: { plan: "free", i } });
const noKey = () =>
  new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
    body: "{}",
  });
const withKey = (i: number) =>
  new Request(url, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: body(i),
  });
try {
  say(
    `load average ${(await import("node:os"))
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  const only = process.env.ONLY;
  if (!only || only === "401") await measure("401/429 (no key; anonymous limit applies)", noKey);
  if (!only || only === "create") await measure("201 new user (key lookup + one upsert call)", withKey);
  const keyed = (path: string, body: () => string) => () =>
    new Request(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: body(),
    });
  if (!only || only === "batch")
    await measure(
      "/users/batch, 1,000 new users",
      keyed("/batch", () => newUsersBody("ro")),
      BATCH,
      1000,
    );
  if (!only || only === "events") await measure("/users/events, 100 events", keyed("/events", eventsBody), EVENTS, 100);
} finally {
  await stopBoss(2_000); // the batch and events routes hand their events to the queue, which keeps connections open
  await closeDatabase();
  await db.drop();
}
