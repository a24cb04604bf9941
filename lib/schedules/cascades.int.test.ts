import postgres from "postgres";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { upsertUser } from "../users/upsert-user";
import { systemContext } from "@/lib/access/context";

// Assignments and firings have no foreign keys (db/migrations/0019): deletes cascade by trigger, and
// writers key-share lock the parents. These tests look for what the keys used to rule out: orphans.

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("schedule-cascades");
});

const client = (method: string, path: string, body?: unknown) =>
  api(method, p.client(path), { key: p.keys.client, body });
const admin = (method: string, path: string, body?: unknown) =>
  api(method, p.admin(path), { key: p.keys.editor, body });
const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Assignments whose user, organization or schedule is gone, and firings whose assignment or offset is gone. */
async function orphans() {
  const [row] = await sql`
    select
      (select count(*)::int from schedule_assignments a where a.project_id = ${p.projectId} and (
         (a.user_id is not null and not exists (select 1 from users u where u.project_id = a.project_id and u.id = a.user_id))
         or (a.organization_id is not null and not exists (select 1 from organizations o where o.project_id = a.project_id and o.id = a.organization_id))
         or not exists (select 1 from schedules s where s.project_id = a.project_id and s.id = a.schedule_id))) as assignments,
      (select count(*)::int from schedule_firings f where f.project_id = ${p.projectId} and (
         not exists (select 1 from schedule_assignments a where a.project_id = f.project_id and a.id = f.assignment_id)
         or not exists (select 1 from schedule_offsets o where o.project_id = f.project_id and o.id = f.offset_id))) as firings`;
  return row as { assignments: number; firings: number };
}

const counts = async (where: { userId?: string; organizationId?: string; scheduleId?: string }) => {
  const [row] = await sql`
    select count(distinct a.id)::int as assignments, count(f.assignment_id)::int as firings
    from schedule_assignments a left join schedule_firings f on f.project_id = a.project_id and f.assignment_id = a.id
    where a.project_id = ${p.projectId}
      and (${where.userId ?? null}::uuid is null or a.user_id = ${where.userId ?? null}::uuid)
      and (${where.organizationId ?? null}::uuid is null or a.organization_id = ${where.organizationId ?? null}::uuid)
      and (${where.scheduleId ?? null}::uuid is null or a.schedule_id = ${where.scheduleId ?? null}::uuid)`;
  return row as { assignments: number; firings: number };
};

describe("deleting what assignments and firings hang on", () => {
  it("deletes them with it: a user, an organization, an offset, a schedule", async () => {
    const renewal = (
      await admin("POST", "/schedules", {
        name: "cascade_renewal",
        type: "single",
        offsets: [{ offset: "3 days", direction: "before" }],
      })
    ).body;
    const u1 = (await client("POST", "/users", { identifier: [{ external_id: "cascade-u1" }] })).body;
    const u2 = (await client("POST", "/users", { identifier: [{ external_id: "cascade-u2" }] })).body;
    const org = (await client("POST", "/organizations", { identifier: [{ external_id: "cascade-o1" }] })).body;
    for (const external_id of ["cascade-u1", "cascade-u2"]) {
      const res = await client("POST", "/users/scheduled", {
        name: "cascade_renewal",
        identifier: [{ external_id }],
        scheduled_at: later(30),
      });
      expect(res.status).toBe(201);
    }
    // Each user: the anniversary (one firing) and the renewal (two offsets, two firings).
    expect(await counts({ userId: u1.id })).toEqual({ assignments: 2, firings: 3 });
    expect(await counts({ organizationId: org.id })).toEqual({ assignments: 1, firings: 1 });

    expect((await client("DELETE", "/users", { identifier: [{ external_id: "cascade-u1" }] })).status).toBe(204);
    expect(await counts({ userId: u1.id })).toEqual({ assignments: 0, firings: 0 });
    expect((await client("DELETE", "/organizations", { identifier: [{ external_id: "cascade-o1" }] })).status).toBe(
      204,
    );
    expect(await counts({ organizationId: org.id })).toEqual({ assignments: 0, firings: 0 });

    const before = renewal.offsets.find((o: { direction: string }) => o.direction === "before");
    expect((await admin("DELETE", `/schedules/${renewal.id}/offsets/${before.id}`)).status).toBe(204);
    expect(await counts({ scheduleId: renewal.id })).toEqual({ assignments: 1, firings: 1 });
    expect((await admin("DELETE", `/schedules/${renewal.id}`)).status).toBe(204);
    expect(await counts({ scheduleId: renewal.id })).toEqual({ assignments: 0, firings: 0 });
    expect(await counts({ userId: u2.id })).toEqual({ assignments: 1, firings: 1 });
    expect(await orphans()).toEqual({ assignments: 0, firings: 0 });
  });
});

describe("writers racing deletes", () => {
  it("leave no orphan: assignments against user deletions, new users against an offset's deletion", async () => {
    await admin("POST", "/schedules", { name: "cascade_race", type: "single" });
    const anniversary = (await admin("GET", "/schedules")).body.data.find(
      (s: { name: string }) => s.name === "anniversary",
    );
    expect(anniversary).toBeDefined();
    for (let round = 0; round < 8; round++) {
      const ids = Array.from({ length: 10 }, (_, i) => `race-${round}-${i}`);
      expect(
        (
          await client(
            "POST",
            "/users/batch",
            ids.map((external_id) => ({ identifier: [{ external_id }] })),
          )
        ).status,
      ).toBe(200);
      // An extra anniversary offset, deleted while new users are being created (their firings use it).
      const offset = await admin("POST", `/schedules/${anniversary.id}/offsets`, {
        offset: `${round + 1} days`,
        direction: "before",
      });
      expect(offset.status).toBe(201);
      const results = await Promise.all([
        ...ids.map((external_id) =>
          client("POST", "/users/scheduled", {
            name: "cascade_race",
            identifier: [{ external_id }],
            scheduled_at: later(10),
          }),
        ),
        ...ids.map((external_id) => client("DELETE", "/users", { identifier: [{ external_id }] })),
        ...Array.from({ length: 4 }, (_, b) =>
          client(
            "POST",
            "/users/batch",
            Array.from({ length: 50 }, (_, i) => ({ identifier: [{ external_id: `race-new-${round}-${b}-${i}` }] })),
          ),
        ),
        ...Array.from({ length: 4 }, (_, b) =>
          client("POST", "/users", { identifier: [{ external_id: `race-one-${round}-${b}` }] }),
        ),
        admin("DELETE", `/schedules/${anniversary.id}/offsets/${offset.body.id}`),
      ]);
      // An assignment either went in before its user's deletion (then was deleted with it) or found no user.
      for (const r of results) expect([200, 201, 204, 404], JSON.stringify(r.body)).toContain(r.status);
      expect(await orphans()).toEqual({ assignments: 0, firings: 0 });
    }
    const [users] = await sql`select count(*)::int as n from users where project_id = ${p.projectId} and id in (
      select user_id from user_identifiers where project_id = ${p.projectId} and external_id like 'race-new-%')`;
    expect(users!.n).toBe(8 * 4 * 50);
  });

  it("a single upsert creating a user holds the anniversary schedule and its offset until it commits", async () => {
    // What the foreign keys' checks held: the deletion of a parent waits for the writer (0019's key-share
    // locks, which lib/schedules/anniversary.ts takes).
    await client("POST", "/users", { identifier: [{ external_id: "held-warm" }] });
    const [parent] = await sql`
      select s.id as schedule_id, o.id as offset_id from schedules s
      join schedule_offsets o on o.project_id = s.project_id and o.schedule_id = s.id
      where s.project_id = ${p.projectId} and s.name = 'anniversary' limit 1`;
    const deleter = postgres(process.env.DATABASE_URL!, {
      max: 1,
      onnotice: () => {},
      connection: { lock_timeout: 300 },
    });
    const attempt = (q: Promise<unknown>) =>
      q.then(
        () => "deleted",
        (e: { code?: string }) => e.code ?? String(e),
      );
    const outcomes: string[] = [];
    try {
      await getDb().transaction(async (tx) => {
        expect(
          (
            await upsertUser(systemContext(tx, p.projectId), {
              identifier: [{ source: "default", external_id: "held-1" }],
            })
          ).created,
        ).toBe(true);
        outcomes.push(
          await attempt(
            deleter`delete from schedule_offsets where project_id = ${p.projectId} and id = ${parent!.offset_id}`,
          ),
        );
        outcomes.push(
          await attempt(
            deleter`delete from schedules where project_id = ${p.projectId} and id = ${parent!.schedule_id}`,
          ),
        );
      });
    } finally {
      await deleter.end();
    }
    expect(outcomes).toEqual(["55P03", "55P03"]); // lock_not_available: both deletions waited for the upsert
    expect(await orphans()).toEqual({ assignments: 0, firings: 0 });
  });
});
