import autocannon from "autocannon";
import { createApiKey } from "../lib/access/api-keys";
import { createProjectWithOwner } from "../lib/projects/create-project";
import { closeDatabase, getDb } from "../db/client";
import { createTestDatabase } from "../scripts/test/database";
import { startNextServer } from "../scripts/test/next-server";

/** A fresh database, the built app on a free port, and a project with an unthrottled admin key. */
export async function benchEnvironment(name: string) {
  const db = await createTestDatabase(`relay_bench_${name}`);
  process.env.DATABASE_URL = db.url;
  const server = await startNextServer({ DATABASE_URL: db.url, DATABASE_POOL_SIZE: "20" });
  const { project } = await createProjectWithOwner(getDb(), { orgName: "bench", projectName: name, ownerEmail: "bench@example.com" });
  const { secret } = await createApiKey(getDb(), { projectId: project.id, name: "bench", role: "admin", rateLimitPerSecond: 10_000_000, rateLimitBurst: 10_000_000 });
  return {
    url: server.url,
    /** The web process, for memory readings (/proc/<pid>/status). */
    webPid: server.child.pid,
    projectId: project.id,
    key: secret,
    db,
    async close() {
      await server.stop();
      await closeDatabase();
      await db.drop();
    },
  };
}

export async function load(opts: autocannon.Options) {
  const result = await autocannon({ connections: 50, duration: 10, ...opts });
  return {
    // Requests over the measured seconds, to a tenth: the per-second average rounded to a whole request
    // hid up to 6 % of a load of 1,000-user batches (8.4/s printed as 8).
    rps: Math.round((result.requests.total / Math.max(result.duration, 0.001)) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}
