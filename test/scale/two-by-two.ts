import type postgres from "postgres";
import { stopLaunched, type Cluster } from "./cluster";
import { closeTestDb, setUpProject, warmUp } from "./project";

/** Two webs and two workers sharing the rate limit through PostgreSQL, with room for the load's connections. */
export const TWO_BY_TWO = {
  webs: 2,
  workers: 2,
  env: { RATE_LIMIT_STORE: "postgres", DATABASE_POOL_SIZE: "8", DATABASE_CONNECT_TIMEOUT: "15" },
};

/** The load's project, set up through the first web, with every web warmed before the clock starts. */
export async function setUpAndWarm(databaseUrl: string, cluster: Cluster) {
  const setup = await setUpProject(databaseUrl, cluster.webs[0]!.url);
  await warmUp(
    cluster.webs.map((w) => w.url),
    setup.projectId,
    setup.key,
  );
  return setup;
}

/** Stops every launched process and the test's connections; a failed run keeps the process logs and says where. */
export async function stopRun(tag: string, run: { failed: boolean; cluster?: Cluster; sql?: postgres.Sql }) {
  if (run.failed && run.cluster) console.log(`[${tag}] process logs kept in ${run.cluster.dumpLogs()}`);
  await stopLaunched();
  await run.sql?.end({ timeout: 2 });
  await closeTestDb();
}
