import { afterAll, beforeAll } from "vitest";
import { api, createTestProject, ownDatabaseForFile, type TestProject } from "../../scripts/test/helpers";
import { startWorker, type TestWorker } from "../../scripts/test/worker";

/*
 * The set-up of the import test files (imports, import-doors): a database and a project per file, the
 * workers they start (killed when the file ends), and the calls they make.
 */

// `let`: importProjectForFile() sets it for the calling file (importers see the new value).
export let p: TestProject;
const workers: TestWorker[] = [];

/** The calling file's own database (`database`, the name's prefix) and project; call it at the top of the file. */
export function importProjectForFile(database: string, project: string): void {
  ownDatabaseForFile(database);
  beforeAll(async () => {
    p = await createTestProject(project);
  });
  afterAll(killWorkers);
}

/** Kills every worker the file started (as a crash would: no graceful stop). */
export async function killWorkers(): Promise<void> {
  for (const w of workers.splice(0)) await w.stop("SIGKILL");
}

/** A worker, started unless one is running. */
export async function ensureWorker(): Promise<void> {
  if (!workers.length) await spawnWorker();
}

/** A worker that looks for imports every 100 ms (`env` on top), stopped when the file ends. */
export async function spawnWorker(env: Record<string, string> = {}): Promise<TestWorker> {
  const w = await startWorker(process.env.DATABASE_URL!, { IMPORT_POLL_MS: "100", ...env });
  workers.push(w);
  return w;
}

/** Uploads `body` as an import of `kind` into `project` (the file's by default) with its client key. */
export const upload = (body: BodyInit, contentType: string, kind = "users", project = p) =>
  api("POST", project.admin(`/imports?kind=${kind}`), {
    key: project.keys.client,
    raw: body,
    headers: { "content-type": contentType },
  });

export const getImport = async (id: string) =>
  (await api("GET", p.admin(`/imports/${id}`), { key: p.keys.support })).body;
