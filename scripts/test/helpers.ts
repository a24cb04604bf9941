import { afterAll, beforeAll, inject } from "vitest";
import postgres from "postgres";
import type { Role } from "../../lib/access/roles";

/** Points this test process's db/client at the run's database before anything opens a connection. */
process.env.DATABASE_URL = inject("databaseUrl");

// `let`: ownDatabaseForFile() points them at a file's own database and server (importers see the new values).
export let baseUrl = inject("baseUrl");
export let sql = postgres(inject("databaseUrl"), { max: 4, onnotice: () => {} });

/**
 * Gives the calling test file a database and a `next start` server of its own, for tests that count rows
 * other files' workers would drain from the shared database (event_intake). Call it at the top of the
 * file, before any other hook: `api`, `sql`, `baseUrl`, `createTestProject` and the in-process db client
 * then use the file's own database, which no worker drains unless the file starts one.
 */
export function ownDatabaseForFile(prefix: string): void {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const { createTestDatabase } = await import("./database");
    const { startNextServer } = await import("./next-server");
    const { closeDatabase } = await import("../../db/client");
    const db = await createTestDatabase(prefix);
    let server: Awaited<ReturnType<typeof startNextServer>>;
    try {
      server = await startNextServer({
        DATABASE_URL: db.url,
        RELAY_TEST_OUTBOX: "1",
        OUTBOX_PATH: inject("outboxPath"),
      });
    } catch (err) {
      await db.drop();
      throw err;
    }
    await closeDatabase();
    process.env.DATABASE_URL = db.url;
    const shared = sql;
    baseUrl = server.url;
    sql = postgres(db.url, { max: 4, onnotice: () => {} });
    stop = async () => {
      const { stopBoss } = await import("../../lib/queue/boss");
      await stopBoss(2_000);
      await sql.end({ timeout: 2 });
      sql = shared;
      await closeDatabase();
      await server.stop();
      await db.drop();
    };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  }, 60_000);
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A real HTTP request to the test server. `body` is sent as JSON unless `raw` is given. */
export async function api<T = any>(
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: BodyInit | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export interface TestProject {
  orgId: string;
  projectId: string;
  keys: Record<Role, string>;
  /** Paths under the project. */
  client: (path: string) => string;
  admin: (path: string) => string;
}

/** A new org and project with one API key per role (high rate limits so tests are not throttled). */
export async function createTestProject(name = "test"): Promise<TestProject> {
  const { getDb } = await import("../../db/client");
  const { createProjectWithOwner } = await import("../../lib/projects/create-project");
  const { createApiKey } = await import("../../lib/access/api-keys");
  const db = getDb();
  const { orgId, project } = await createProjectWithOwner(
    { db },
    { orgName: `org-${name}`, projectName: name, ownerEmail: `owner-${crypto.randomUUID()}@example.com` },
  );
  const keys = {} as Record<Role, string>;
  for (const role of ["support", "client", "editor", "admin"] as Role[]) {
    keys[role] = (
      await createApiKey(
        { db },
        { projectId: project.id, name: role, role, rateLimitPerSecond: 100_000, rateLimitBurst: 100_000 },
      )
    ).secret;
  }
  return {
    orgId,
    projectId: project.id,
    keys,
    client: (p) => `/api/client/projects/${project.id}${p}`,
    admin: (p) => `/api/admin/projects/${project.id}${p}`,
  };
}

export async function eventsOf(projectId: string, name?: string) {
  return name
    ? sql`select * from events where project_id = ${projectId} and name = ${name} order by occurred_at, id`
    : sql`select * from events where project_id = ${projectId} order by occurred_at, id`;
}

/** A row count of every end-user table in a project, to prove a refused request wrote nothing. */
export async function snapshotCounts(projectId: string) {
  const [row] = await sql`
    select
      (select count(*) from users where project_id = ${projectId})::int as users,
      (select count(*) from user_identifiers where project_id = ${projectId})::int as user_identifiers,
      (select count(*) from organizations where project_id = ${projectId})::int as organizations,
      (select count(*) from organization_identifiers where project_id = ${projectId})::int as organization_identifiers,
      (select count(*) from organization_members where project_id = ${projectId})::int as organization_members,
      (select count(*) from events where project_id = ${projectId})::int as events,
      (select coalesce(max(updated_at), 'epoch') from users where project_id = ${projectId}) as users_updated,
      (select coalesce(max(updated_at), 'epoch') from organizations where project_id = ${projectId}) as orgs_updated`;
  return row;
}

/**
 * True once the worker has passed every point the project's accepted events lead to: no intake row left
 * (step 1 done) and no job of the project waiting, retrying or running in pg-boss (steps 2-4, fan-outs,
 * list rebuilds done, with the events they record in turn). Each job's effect commits before pg-boss
 * marks it completed, so this is the positive signal a "nothing (more) happened" assertion waits for.
 */
export async function pipelineSettled(projectId: string): Promise<boolean> {
  const [row] = await sql`select
    exists (select 1 from event_intake where project_id = ${projectId} and failed_at is null) as intake,
    exists (select 1 from pgboss.job where state in ('created', 'retry', 'active') and data->>'projectId' = ${projectId}) as jobs`;
  return !row!.intake && !row!.jobs;
}
