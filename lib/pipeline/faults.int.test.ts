import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { createApiKey } from "../access/api-keys";
import { systemContext } from "../access/context";
import { createProjectWithOwner } from "../projects/create-project";
import { startTestPostgres } from "../../scripts/test/embedded-pg";
import { startNextServer } from "../../scripts/test/next-server";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";
import { runStep } from "./run-step";
import { discoverSchema, schemaDeltaOf } from "./discover-schema";

/*
 * Fault tests on a PostgreSQL and a Next server of their own: a worker SIGKILLed mid-drain, two workers
 * racing, a retried step job, and the database going away under the intake endpoint.
 */
let pg: Awaited<ReturnType<typeof startTestPostgres>>;
let server: Awaited<ReturnType<typeof startNextServer>>;
/** The web server's DATABASE_CONNECT_TIMEOUT: how long a request may wait for a database that is down. */
const CONNECT_TIMEOUT_SECONDS = 2;
let sql: postgres.Sql;
let db: Db;
let projectId: string;
let key: string;
const workers: TestWorker[] = [];

beforeAll(async () => {
  pg = await startTestPostgres();
  sql = postgres(pg.url, { max: 4, onnotice: () => {} });
  db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "faults", projectName: "faults", ownerEmail: `o-${crypto.randomUUID()}@example.com` },
  );
  projectId = project.id;
  key = (
    await createApiKey(
      { db },
      { projectId, name: "c", role: "client", rateLimitPerSecond: 100_000, rateLimitBurst: 100_000 },
    )
  ).secret;
  server = await startNextServer({ DATABASE_URL: pg.url, DATABASE_CONNECT_TIMEOUT: String(CONNECT_TIMEOUT_SECONDS) });
}, 180_000);

afterAll(async () => {
  for (const w of workers) await w.stop("SIGKILL");
  await server?.stop();
  await sql?.end({ timeout: 2 });
  await pg?.destroy();
});

const post = (body: unknown) =>
  fetch(`${server.url}/api/client/projects/${projectId}/users/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
const batch = (name: string, from: number, size: number, users: number, prefix = "u") =>
  Array.from({ length: size }, (_, k) => {
    const i = from + k;
    return { name, id: `${name}-${i}`, identifier: [{ external_id: `${prefix}-${i % users}` }], data: { n: i } };
  });
/**
 * The signal that nothing more will be recorded: no intake row waits and no step job of the project is
 * left to run (each job's effect commits before pg-boss marks it completed).
 */
const settled = async () => {
  const [row] = await sql`select
    exists (select 1 from event_intake where project_id = ${projectId} and failed_at is null) as intake,
    exists (select 1 from pgboss.job where state in ('created', 'retry', 'active') and data->>'projectId' = ${projectId}) as jobs`;
  return !row!.intake && !row!.jobs;
};
const counts = async (name: string) => {
  const [r] =
    await sql`select count(*)::int as n, count(distinct client_id)::int as d from events where project_id = ${projectId} and name = ${name}`;
  return r as { n: number; d: number };
};
const schemaCount = async (name: string) => {
  const [r] =
    await sql`select count::int as c from event_schema where project_id = ${projectId} and event_name = ${name} and path = 'n'`;
  return (r?.c as number | undefined) ?? 0;
};
const spawnWorker = async (env: Record<string, string> = {}) => {
  const w = await startWorker(pg.url, env);
  workers.push(w);
  return w;
};

describe("exactly-once under faults", () => {
  it("SIGKILL of a worker while it records 20,000 events: after a restart accepted == recorded, no duplicates, steps once", async () => {
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      const res = await post(batch("Load", i * 1000, 1000, 500));
      expect(res.status).toBe(202);
      accepted += ((await res.json()) as { accepted: number }).accepted;
    }
    expect(accepted).toBe(20_000);
    const first = await spawnWorker({ INTAKE_BATCH: "250", INTAKE_LOOPS: "1" });
    const atKill = await waitFor(
      async () => {
        const { n } = await counts("Load");
        return n >= 2_000 ? n : null;
      },
      60_000,
      "the first worker to record some events",
    );
    await first.stop("SIGKILL");
    const afterKill = (await counts("Load")).n;
    expect(atKill).toBeLessThan(20_000);
    expect(afterKill).toBeLessThan(20_000);

    const t0 = Date.now();
    await spawnWorker();
    await waitFor(async () => (await counts("Load")).n === 20_000, 90_000, "all 20,000 recorded");
    const t1 = Date.now();
    await waitFor(async () => (await schemaCount("Load")) === 20_000, 90_000, "schema step over all 20,000 events");
    console.log(
      `[faults] killed at ${atKill}; restart to all recorded ${t1 - t0} ms, to all steps ${Date.now() - t0} ms`,
    );
    await waitFor(settled, 60_000, "intake empty and no step job left");
    expect(await counts("Load")).toEqual({ n: 20_000, d: 20_000 });
    expect(await schemaCount("Load")).toBe(20_000);
    const [{ users, created }] = await sql`
      select (select count(*)::int from users where project_id = ${projectId}) as users,
             (select count(*)::int from events where project_id = ${projectId} and name = 'user.created') as created`;
    expect(users).toBe(500);
    expect(created).toBe(500);
    const [{ left }] = await sql`select count(*)::int as left from event_intake`;
    expect(left).toBe(0);
  }, 240_000);

  it("two workers over one queue record everything exactly once, creating each new user once", async () => {
    await spawnWorker({ INTAKE_BATCH: "100" });
    const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    expect(live.length).toBeGreaterThanOrEqual(2);
    // New identifiers spread over every request, so both workers race to create the same users.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(batch("Race", i * 500, 500, 300, "racer"))),
    );
    expect(results.every((r) => r.status === 202)).toBe(true);
    await waitFor(
      async () => (await counts("Race")).n >= 5_000 && (await schemaCount("Race")) >= 5_000,
      90_000,
      "race recorded",
    );
    await waitFor(settled, 60_000, "intake empty and no step job left");
    expect(await counts("Race")).toEqual({ n: 5_000, d: 5_000 });
    expect(await schemaCount("Race")).toBe(5_000);
    const [{ racers, created }] = await sql`
      select count(distinct user_id)::int as racers,
        (select count(*)::int from events e where e.project_id = ${projectId} and e.name = 'user.created'
          and e.user_id in (select user_id from user_identifiers where project_id = ${projectId} and external_id like 'racer-%')) as created
      from user_identifiers where project_id = ${projectId} and external_id like 'racer-%'`;
    expect(racers).toBe(300);
    expect(created).toBe(300);
  }, 120_000);

  it("SIGTERM lets a worker finish its batch and exit 0; a successor records the rest exactly once", async () => {
    for (const w of workers) await w.stop("SIGKILL");
    for (let i = 0; i < 5; i++) expect((await post(batch("Term", i * 1000, 1000, 200))).status).toBe(202);
    const w = await spawnWorker({ INTAKE_BATCH: "250", INTAKE_LOOPS: "1" });
    await waitFor(async () => (await counts("Term")).n > 0, 60_000, "some Term events recorded");
    const exited = new Promise<number | null>((r) => w.child.once("exit", (code) => r(code)));
    w.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(w.output()).toContain("SIGTERM");
    await spawnWorker();
    await waitFor(
      async () => (await counts("Term")).n === 5_000 && (await schemaCount("Term")) === 5_000,
      60_000,
      "Term recorded",
    );
    expect(await counts("Term")).toEqual({ n: 5_000, d: 5_000 });
  }, 120_000);

  it("sets aside a row that fails on its own (a poison row) and records the rest of its batch", async () => {
    // Cannot come through the API (validation refuses it): an identifier without external_id.
    await sql`insert into event_intake (project_id, kind, name, identifier, data)
      values (${projectId}, 'user', 'Poison', '[{"source": "default"}]', '{}')`;
    for (let i = 0; i < 3; i++) expect((await post(batch("AfterPoison", i * 100, 100, 50))).status).toBe(202);
    await waitFor(async () => (await counts("AfterPoison")).n === 300, 60_000, "the healthy rows recorded");
    const [bad] = await waitFor(
      async () => {
        const r =
          await sql`select failed_at, error from event_intake where project_id = ${projectId} and name = 'Poison' and failed_at is not null`;
        return r.length ? r : null;
      },
      30_000,
      "the poison row set aside",
    );
    expect(bad!.error).toBeTruthy();
    expect((await counts("Poison")).n).toBe(0);
  }, 120_000);

  it("records a row whose failure passes instead of setting it aside (a switchover's moment)", async () => {
    // A trigger refuses the row while a flag is up, as a database in a switchover can refuse a write for a
    // moment with an error that does not say "unavailable"; the flag goes down once the worker has tried
    // the row alone and failed.
    const w = workers.at(-1)!;
    await sql`create table flaky_flag (up boolean)`;
    await sql`insert into flaky_flag values (true)`;
    await sql.unsafe(`create function refuse_flaky() returns trigger language plpgsql as $$
      begin
        if new.name = 'Flaky' and exists (select 1 from flaky_flag where up) then raise exception 'refused for now'; end if;
        return new;
      end $$`);
    await sql.unsafe(
      "create trigger refuse_flaky before insert on events for each row execute function refuse_flaky()",
    );
    try {
      const from = w.output().length;
      expect((await post(batch("Flaky", 0, 1, 1, "flaky"))).status).toBe(202);
      await waitFor(async () => /"limit":1,/.test(w.output().slice(from)), 30_000, "the row tried alone and refused");
      await sql`update flaky_flag set up = false`;
      await waitFor(async () => (await counts("Flaky")).n === 1, 30_000, "the row recorded");
      const [left] =
        await sql`select count(*)::int as n from event_intake where project_id = ${projectId} and name = 'Flaky'`;
      expect(left!.n).toBe(0);
    } finally {
      await sql.unsafe(
        "drop trigger if exists refuse_flaky on events; drop function if exists refuse_flaky(); drop table if exists flaky_flag",
      );
    }
  }, 120_000);

  it("a retried or duplicated step job writes nothing twice", async () => {
    const rows =
      await sql`select name, data, received_at::text as received_at from events where project_id = ${projectId} and name = 'Race' limit 10`;
    const delta = schemaDeltaOf(rows.map((r) => ({ name: r.name, data: r.data, receivedAt: r.received_at as string })));
    const ctx = systemContext(db, projectId);
    const batchId = crypto.randomUUID();
    const before = (
      await sql`select count::int as c from event_schema where project_id = ${projectId} and event_name = 'Race' and path = ''`
    )[0]!.c;
    const runs = await Promise.all(
      [1, 2, 3].map(() =>
        runStep(ctx, { step: "pipeline.schema", batchId, effect: (inTx) => discoverSchema(inTx, delta) }),
      ),
    );
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(
      await runStep(ctx, { step: "pipeline.schema", batchId, effect: (inTx) => discoverSchema(inTx, delta) }),
    ).toBe(false);
    const after = (
      await sql`select count::int as c from event_schema where project_id = ${projectId} and event_name = 'Race' and path = ''`
    )[0]!.c;
    expect(after - before).toBe(10);
  });

  it("answers 503 problem+json within the request timeout while the database is down, and recovers once it is back", async () => {
    await pg.stop();
    const started = Date.now();
    const res = await post(batch("Outage", 0, 1, 1));
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(((await res.json()) as { status: number }).status).toBe(503);
    // Bounded by the server's connect timeout, with a wide margin for a loaded machine.
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_SECONDS * 1000 * 5);

    await pg.start();
    const ok = await waitFor(
      async () => {
        const r = await post(batch("Outage", 1, 1, 1)).catch(() => null);
        return r?.status === 202 ? r : null;
      },
      30_000,
      "intake to accept again",
    );
    expect(ok.status).toBe(202);
    // The workers rode out the outage and record what was accepted after it.
    await waitFor(async () => (await counts("Outage")).n === 1, 60_000, "the accepted event to be recorded");
    expect((await counts("Outage")).n).toBe(1);
  }, 120_000);
});
