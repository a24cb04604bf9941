import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { admin, client, p, scheduleProjectForFile, user } from "../../test/fixtures/schedules";

scheduleProjectForFile();

describe("schedule definitions and offsets", () => {
  it("every project starts with the built-in recurring `anniversary` definition, which cannot be deleted", async () => {
    const list = await admin("GET", "/schedules", undefined, p.keys.support);
    expect(list.status).toBe(200);
    const anniversary = list.body.data.find((s: any) => s.name === "anniversary");
    expect(anniversary).toMatchObject({
      type: "recurring",
      builtin: true,
      offsets: [{ offset: "0 minutes", direction: "after" }],
    });
    const del = await admin("DELETE", `/schedules/${anniversary.id}`);
    expect(del.status).toBe(422);
  });

  it("creates a definition with the default `0 minutes after` offset, and refuses a duplicate name with 409", async () => {
    const res = await admin("POST", "/schedules", {
      name: "trial_end",
      type: "single",
      offsets: [{ offset: "7 days", direction: "before" }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "trial_end",
      type: "single",
      builtin: false,
      offsets: [
        { offset: "7 days", direction: "before" },
        { offset: "0 minutes", direction: "after" },
      ],
    });
    const again = await admin("POST", "/schedules", { name: "trial_end", type: "recurring" });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    const one = await admin("GET", `/schedules/${res.body.id}`, undefined, p.keys.support);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: "trial_end",
      assignments: { active: 0, paused: 0, fired: 0 },
      skipped_firings: 0,
    });
  });

  it("adds offsets; the same interval and direction again is 409 even when spelled differently", async () => {
    const s = (await admin("POST", "/schedules", { name: "renewal", type: "recurring" })).body;
    const add = await admin("POST", `/schedules/${s.id}/offsets`, { offset: "1 week", direction: "before" });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ offset: "1 week", direction: "before" });
    expect((await admin("POST", `/schedules/${s.id}/offsets`, { offset: "7 days", direction: "before" })).status).toBe(
      409,
    );
    expect((await admin("POST", `/schedules/${s.id}/offsets`, { offset: "0 days", direction: "after" })).status).toBe(
      409,
    );
    // Same interval, other direction: a different offset.
    expect((await admin("POST", `/schedules/${s.id}/offsets`, { offset: "7 days", direction: "after" })).status).toBe(
      201,
    );
    const list = await admin("GET", `/schedules/${s.id}/offsets`, undefined, p.keys.support);
    expect(list.body.data.map((o: any) => `${o.offset} ${o.direction}`)).toEqual([
      "1 week before",
      "0 minutes after",
      "7 days after",
    ]);
  });

  it("answers 400 naming the field for an interval PostgreSQL does not accept or a negative one, and writes nothing", async () => {
    const s = (await admin("POST", "/schedules", { name: "checks", type: "single" })).body;
    const bad = await admin("POST", `/schedules/${s.id}/offsets`, { offset: "7 fortnights", direction: "before" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: "offset", message: "not a PostgreSQL interval" }]);
    const negative = await admin("POST", `/schedules/${s.id}/offsets`, { offset: "-2 days", direction: "after" });
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0].path).toBe("offset");
    const inCreate = await admin("POST", "/schedules", {
      name: "checks2",
      type: "single",
      offsets: [{ offset: "soon", direction: "after" }],
    });
    expect(inCreate.status).toBe(400);
    expect(inCreate.body.errors[0].path).toBe("offsets[0].offset");
    expect(
      (await admin("GET", "/schedules?limit=500", undefined, p.keys.support)).body.data.some(
        (x: any) => x.name === "checks2",
      ),
    ).toBe(false);
    expect((await admin("POST", "/schedules", { name: "has space", type: "single" })).status).toBe(400);
  });

  it("refuses writes below editor and reads without a key; unknown ids are 404", async () => {
    expect((await admin("POST", "/schedules", { name: "nope", type: "single" }, p.keys.client)).status).toBe(403);
    const s = (await admin("GET", "/schedules", undefined, p.keys.support)).body.data[0];
    expect(
      (await admin("POST", `/schedules/${s.id}/offsets`, { offset: "1 day", direction: "after" }, p.keys.support))
        .status,
    ).toBe(403);
    expect((await api("GET", p.admin("/schedules"))).status).toBe(401);
    expect((await admin("GET", `/schedules/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await admin("GET", "/schedules/not-a-uuid")).status).toBe(404);
  });
});

describe("anniversary", () => {
  it("every new user and organization gets its anniversary assignment in the transaction that creates it", async () => {
    const u = await user("anniv-1");
    const [row] = await sql`
      select a.*, a.cycle::int as cycle, s.name from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
      where a.project_id = ${p.projectId} and a.user_id = ${u.id}`;
    expect(row).toMatchObject({ name: "anniversary", state: "active", interval: "1 year", cycle: 1 });
    expect(new Date(row!.anchor).toISOString()).toBe(new Date(u.created_at).toISOString());
    const [{ occurrence }] = await sql`select (${u.created_at}::timestamptz + interval '1 year') as occurrence`;
    expect(new Date(row!.occurrence_at).getTime()).toBe(new Date(occurrence).getTime());
    const [{ n }] =
      await sql`select count(*)::int as n from schedule_firings where assignment_id = ${row!.id} and state = 'pending'`;
    expect(n).toBe(1);

    const batch = await client("POST", "/users/batch", [
      { identifier: [{ external_id: "anniv-b1" }] },
      { identifier: [{ external_id: "anniv-b2" }] },
    ]);
    expect(batch.status).toBeLessThan(300);
    const ids = batch.body.data.map((x: any) => x.id);
    const [{ m }] =
      await sql`select count(*)::int as m from schedule_assignments where project_id = ${p.projectId} and user_id = any(${ids}::uuid[])`;
    expect(m).toBe(2);

    const org = (await client("POST", "/organizations", { identifier: [{ external_id: "anniv-org" }] })).body;
    const [{ o }] =
      await sql`select count(*)::int as o from schedule_assignments where project_id = ${p.projectId} and organization_id = ${org.id}`;
    expect(o).toBe(1);
  });
});
