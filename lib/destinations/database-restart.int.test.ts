import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { systemContext } from "../access/context";
import { createProjectWithOwner } from "../projects/create-project";
import { startTestPostgres } from "../../scripts/test/embedded-pg";
import { TEST_AUTH_SECRET } from "../../scripts/test/next-server";
import { startReceiver } from "../../scripts/test/webhook-receiver";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";
import { createDestination } from "./create-destination";
import { webhookIdOf } from "./sign";

/*
 * Destination messages across a database restart, on a PostgreSQL of this file's own (stopped and started
 * here, never the shared one): a real worker sends to a real receiver on 127.0.0.1 while the database goes
 * away and comes back. Every message is delivered and sent once, its outcome written once; none is lost.
 */
let pg: Awaited<ReturnType<typeof startTestPostgres>>;
let sql: postgres.Sql;
let db: Db;
let projectId: string;
let destinationId: string;
let worker: TestWorker;
let rx: Awaited<ReturnType<typeof startReceiver>>;
const N = 2_000;

beforeAll(async () => {
  process.env.AUTH_SECRET ??= TEST_AUTH_SECRET;
  process.env.DESTINATIONS_ALLOW_HOSTS = "127.0.0.1,localhost";
  pg = await startTestPostgres();
  sql = postgres(pg.url, { max: 2, onnotice: () => {} });
  db = drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db;
  const { project } = await createProjectWithOwner(
    { db },
    { orgName: "dest-restart", projectName: "dest-restart", ownerEmail: `o-${crypto.randomUUID()}@example.com` },
  );
  projectId = project.id;
  rx = await startReceiver();
  const made = await createDestination(systemContext(db, projectId), {
    name: "restart",
    url: rx.url("/restart"),
    events: ["Queued"],
    enabled: true,
  });
  rx.setSecrets([made.secret]);
  destinationId = made.id;
  worker = await startWorker(pg.url, {
    DESTINATIONS_ALLOW_HOSTS: "127.0.0.1,localhost",
    DESTINATION_RETRY_SCHEDULE: "200ms,300ms,500ms,1s,1s,2s,2s,3s,5s",
    DESTINATION_POLL_MS: "100",
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop("SIGKILL");
  await rx?.stop();
  await sql?.end({ timeout: 2 });
  await pg?.destroy();
});

const states = async (): Promise<Record<string, number>> =>
  Object.fromEntries(
    (
      await sql`select state, count(*)::int as n from destination_deliveries
        where project_id = ${projectId} and destination_id = ${destinationId} group by state`
    ).map((r) => [r.state, r.n]),
  );

describe("destination messages across a database restart", () => {
  it("delivers every message queued before the stop, each outcome written once, none lost", async () => {
    // Queued as the pipeline would (its step is not under test here), all due now.
    const ids = (
      await sql`insert into destination_deliveries (project_id, destination_id, event_name, next_attempt_at, payload)
        select ${projectId}::uuid, ${destinationId}::uuid, 'Queued', now(),
          jsonb_build_object('type', 'Queued', 'timestamp', now(), 'data', jsonb_build_object('i', i))
        from generate_series(1, ${N}) i returning id`
    ).map((r) => r.id as string);
    await sql`select pg_notify('relay_destinations', '')`;
    await waitFor(async () => rx.received.length >= 100, 120_000, "the first messages received");
    await pg.stop();
    const duringStop = rx.received.length;
    await new Promise((r) => setTimeout(r, 2_000));
    await pg.start();
    await waitFor(
      async () => ((await states().catch(() => ({}) as Record<string, number>)).delivered ?? 0) === N,
      240_000,
      "every message delivered after the restart",
    );
    // The restart fell inside the run, not after it.
    expect(duringStop).toBeLessThan(N);
    expect(await states()).toEqual({ delivered: N });
    // Every message reached the receiver, signed and verified; each is decided once (one 2xx attempt).
    const got = new Set(rx.received.filter((r) => r.verifiedBy.length).map((r) => r.webhookId));
    expect(ids.filter((id) => !got.has(webhookIdOf(id)))).toEqual([]);
    // And none was sent again: the outcomes of messages sent while the database was away were kept by the
    // sender and written once it was back, so no claim ran out and went out a second time.
    const times = new Map<string, number>();
    for (const r of rx.received) times.set(r.webhookId, (times.get(r.webhookId) ?? 0) + 1);
    expect([...times.values()].filter((n) => n > 1)).toEqual([]);
    const [attempts] = await sql`select count(*) filter (where status between 200 and 299)::int as ok,
        count(distinct delivery_id) filter (where status between 200 and 299)::int as decided
      from destination_attempts where project_id = ${projectId} and destination_id = ${destinationId}`;
    expect(attempts).toEqual({ ok: N, decided: N });
  }, 400_000);
});
