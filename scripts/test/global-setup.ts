import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createTemplateDatabase, createTestDatabase, TEMPLATE_ENV } from "./database";
import { startNextServer } from "./next-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    outboxPath: string;
  }
}

/**
 * One fresh database and one real Next server for the integration run; both go away afterwards. The
 * migrations run once, into a template that every database of the run (this one, and the files' own) copies.
 */
export default async function setup(project: TestProject) {
  const template = await createTemplateDatabase();
  process.env[TEMPLATE_ENV] = template.name;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  try {
    db = await createTestDatabase();
  } catch (err) {
    await template.drop();
    throw err;
  }
  // No SMTP server in integration runs: mail goes to a file outbox that tests read (RELAY_TEST_OUTBOX).
  const outboxDir = mkdtempSync(path.join(tmpdir(), "relay-outbox-"));
  const outboxPath = path.join(outboxDir, "outbox.jsonl");
  let server: Awaited<ReturnType<typeof startNextServer>>;
  try {
    server = await startNextServer({
      DATABASE_URL: db.url,
      RELAY_TEST_OUTBOX: "1",
      OUTBOX_PATH: outboxPath,
      // The suite runs many files beside this server: the list preview's estimate gets time to spare.
      LIST_PREVIEW_BUDGET_MS: "20000",
    });
  } catch (err) {
    await db.drop();
    await template.drop();
    throw err;
  }
  // Workers the test files start (scripts/test/worker.ts passes process.env on) send their mail to the same
  // outbox, so an invitation's mail job lands where outboxFor() reads whichever worker claims it.
  process.env.RELAY_TEST_OUTBOX = "1";
  process.env.OUTBOX_PATH = outboxPath;
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", db.url);
  project.provide("outboxPath", outboxPath);
  return async () => {
    await server.stop();
    await db.drop();
    await template.drop();
    rmSync(outboxDir, { recursive: true, force: true });
  };
}
