import type { TestProject } from "vitest/node";
import { createTestDatabase } from "./database";
import { startNextServer } from "./next-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

/** One fresh database and one real Next server for the integration run; both go away afterwards. */
export default async function setup(project: TestProject) {
  const db = await createTestDatabase();
  let server: Awaited<ReturnType<typeof startNextServer>>;
  try {
    server = await startNextServer({ DATABASE_URL: db.url });
  } catch (err) {
    await db.drop();
    throw err;
  }
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", db.url);
  return async () => {
    await server.stop();
    await db.drop();
  };
}
