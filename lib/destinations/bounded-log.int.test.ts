import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { DELIVERIES_PER_DESTINATION, pruneDeliveries } from "./prune-deliveries";
import { MAX_REPLAY } from "./schemas";

/*
 * The delivery log stays bounded: finished messages past the log's days go (with their attempts), each
 * destination keeps its newest DELIVERIES_PER_DESTINATION finished ones, pending ones go only when their
 * destination is off (this one is);
 * a replay window holding more than MAX_REPLAY messages is refused and queues nothing. No worker runs
 * here, so what the table holds is what these calls left.
 */
let p: TestProject;
let destinationId: string;

const count = async (where: string) =>
  Number(
    (
      await sql.unsafe(
        `select count(*)::int as n from destination_deliveries where project_id = $1 and destination_id = $2 and ${where}`,
        [p.projectId, destinationId],
      )
    )[0]!.n,
  );

/** `n` deliveries of the destination in `state`, made `daysAgo` days ago, each with one attempt. */
async function seed(n: number, state: "pending" | "delivered" | "failed", daysAgo: number) {
  await sql`
    with made as (
      insert into destination_deliveries (project_id, destination_id, event_name, payload, state, created_at, finished_at)
      select ${p.projectId}::uuid, ${destinationId}::uuid, 'Seeded', '{}'::jsonb, ${state},
        now() - make_interval(days => ${daysAgo}) + make_interval(secs => i), case when ${state} <> 'pending' then now() end
      from generate_series(1, ${n}) i
      returning project_id, id, destination_id)
    insert into destination_attempts (project_id, delivery_id, destination_id, attempted_at, status, latency_ms)
    select project_id, id, destination_id, now(), 200, 1 from made`;
}

beforeAll(async () => {
  p = await createTestProject("destinations-bounded");
  const made = await api("POST", p.admin("/destinations"), {
    key: p.keys.editor,
    body: { name: "bounded", url: "http://127.0.0.1:9/bounded", events: ["Replayed"], enabled: false },
  });
  expect(made.status).toBe(201);
  destinationId = made.body.id;
});

describe("the delivery log", () => {
  it("drops finished messages past the log's days with their attempts, and a disabled destination's pending ones", async () => {
    await seed(5, "delivered", 40);
    await seed(3, "pending", 40);
    await seed(4, "failed", 1);
    await pruneDeliveries({ db: (await import("../../db/client")).getDb() });
    expect(await count("state = 'delivered'")).toBe(0);
    // The destination is off: its pending messages go like finished ones (an enabled one's stay:
    // destination-doors.int.test.ts).
    expect(await count("state = 'pending'")).toBe(0);
    expect(await count("state = 'failed'")).toBe(4);
    const [orphans] =
      await sql`select count(*)::int as n from destination_attempts a where a.project_id = ${p.projectId}
      and not exists (select 1 from destination_deliveries d where d.project_id = a.project_id and d.id = a.delivery_id)`;
    expect(orphans!.n).toBe(0);
  });

  it("keeps each destination's newest finished messages up to the bound", async () => {
    await seed(DELIVERIES_PER_DESTINATION + 20, "delivered", 2);
    const newest = await sql`select id from destination_deliveries where project_id = ${p.projectId}
      and destination_id = ${destinationId} and state = 'delivered' order by id desc limit 1`;
    await pruneDeliveries({ db: (await import("../../db/client")).getDb() });
    // The bound counts every message the destination holds: 4 failed + the delivered ones.
    expect(await count("state <> 'pending'")).toBeLessThanOrEqual(DELIVERIES_PER_DESTINATION);
    expect(await count("state <> 'pending'")).toBeGreaterThan(DELIVERIES_PER_DESTINATION - 10);
    expect(await count(`id = '${newest[0]!.id}'`)).toBe(1);
  }, 120_000);
});

describe("replay", () => {
  it("refuses a window holding more than the bound and queues nothing", async () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    await sql`insert into events (project_id, name, data, origin, occurred_at)
      select ${p.projectId}::uuid, 'Replayed', '{}'::jsonb, 'client', now() - make_interval(secs => i % 1800)
      from generate_series(1, ${MAX_REPLAY + 1}) i`;
    const before = await count("true");
    const res = await api("POST", p.admin(`/destinations/${destinationId}/replay`), {
      key: p.keys.admin,
      body: { since },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(await count("true")).toBe(before);
  }, 120_000);
});
