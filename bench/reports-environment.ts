import { readFileSync } from "node:fs";
import { closeDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";
import { startNextServer } from "../scripts/test/next-server";
import type { BenchProject } from "./reports-catalogue";
import type { Catalogue } from "./reports-seed";
import { KEPT, log } from "./reports-settings";
import { benchEnvironment } from "./harness";

/** A seeded project of the reads phase: its size's name, the project, its messages and its catalogue. */
export type Size = { name: string; p: BenchProject; n: number; c: Catalogue };

export type ReportsEnvironment = Awaited<ReturnType<typeof reportsEnvironment>>;

/** The kept database's url and projects (BENCH_REUSE), or a fresh database and server. */
export async function reportsEnvironment() {
  if (!process.env.BENCH_REUSE) return { ...(await benchEnvironment("reports")), kept: undefined };
  const kept = JSON.parse(readFileSync(KEPT, "utf8")) as { url: string; sizes: Size[] };
  process.env.DATABASE_URL = kept.url;
  await runMigrations(kept.url);
  const server = await startNextServer({ DATABASE_URL: kept.url });
  log(`reusing ${kept.url}`);
  return {
    url: server.url,
    projectId: kept.sizes[1]!.p.projectId,
    key: kept.sizes[1]!.p.key,
    db: { url: kept.url },
    kept,
    async close() {
      await server.stop();
      await closeDatabase();
    },
  };
}
