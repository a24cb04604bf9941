import { createApiKey } from "../lib/access/api-keys";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { closeDatabase, getDb } from "../db/client";
import { createTestDatabase } from "../scripts/test/database";

/**
 * Relay's own cost per request on POST /users, outside Next.js: the route's exported handler (withProject:
 * observed wrapper, pino access line, prom-client metrics, rate limits, key lookup, the upsert) called
 * in-process, sequentially. Prints wall time and CPU time per call, so the share of a request that is
 * Relay's (the rest is Next.js and node:http) can be read against the server's req/s.
 * `LOG_FORMAT=json npx tsx bench/route-overhead.ts > /dev/null` prints to stderr (stdout takes the access
 * log); ONLY=401 or ONLY=create runs one; CALLS sets the count (default 5000).
 */
const N = Number(process.env.CALLS ?? 5000);
const db = await createTestDatabase("relay_overhead");
process.env.DATABASE_URL = db.url;
const { POST } = await import("../app/api/client/projects/[projectID]/users/route");
const { project } = await createProjectWithOwner(getDb(), { orgName: "o", projectName: "o", ownerEmail: "o@example.com" });
const { secret } = await createApiKey(getDb(), { projectId: project.id, name: "o", role: "admin", rateLimitPerSecond: 10_000_000, rateLimitBurst: 10_000_000 });
const url = `http://127.0.0.1/api/client/projects/${project.id}/users`;
const params = { params: Promise.resolve({ projectID: project.id }) };
const say = (m: string) => process.stderr.write(`${m}\n`);

async function measure(name: string, make: (i: number) => Request) {
  for (let i = 0; i < 200; i++) await POST(make(-i - 1), params as never); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const codes = new Map<number, number>();
  for (let i = 0; i < N; i++) {
    const res = await POST(make(i), params as never);
    codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
  }
  const wall = (performance.now() - t0) / N;
  const cpu = process.cpuUsage(cpu0);
  say(`${name.padEnd(44)} wall ${(wall * 1000).toFixed(0).padStart(5)} µs/call, CPU ${((cpu.user + cpu.system) / N).toFixed(0).padStart(5)} µs/call  ${[...codes].map(([c, n]) => `${c}:${n}`).join(" ")}`);
}

const body = (i: number) => JSON.stringify({ identifier: [{ external_id: `x-${i}` }], email: `u${i}@example.com`, data: { plan: "free", i } });
const noKey = () => new Request(url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" }, body: "{}" });
const withKey = (i: number) => new Request(url, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: body(i) });
try {
  say(`load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  const only = process.env.ONLY;
  if (!only || only === "401") await measure("401/429 (no key; anonymous limit applies)", noKey);
  if (!only || only === "create") await measure("201 new user (key lookup + one upsert call)", withKey);
} finally {
  await closeDatabase();
  await db.drop();
}
