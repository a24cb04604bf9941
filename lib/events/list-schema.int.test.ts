import { describe, expect, it } from "vitest";
import { api, createTestProject, sql } from "../../scripts/test/helpers";
import { PROPERTIES_SHOWN } from "./list-schema";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

useProjectWithWorker("schema");

describe("GET /schema (discovered schema, pipeline step 2)", () => {
  it("merges nested paths, arrays, ISO dates and differing types with counts and first/last seen", async () => {
    const id = [{ external_id: "schema-user" }];
    const res = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: [
        {
          name: "Checkout",
          identifier: id,
          data: { total: 10, address: { city: "Paris" }, items: [{ sku: "a" }], at: "2026-05-01T10:00:00Z" },
        },
        { name: "Checkout", identifier: id, data: { total: "ten", coupon: null } },
      ],
    });
    expect(res.status).toBe(202);
    const schema = await waitFor(
      async () => {
        const r = await api("GET", p.admin("/schema?name=Checkout"), { key: p.keys.support });
        return r.body.data?.[0]?.count === 2 ? r.body.data[0] : null;
      },
      20_000,
      "schema",
    );
    const props = Object.fromEntries(schema.properties.map((x: any) => [x.path, x]));
    expect(props.total).toMatchObject({ types: ["number", "string"], count: 2 });
    expect(props["address.city"]).toMatchObject({ types: ["string"], count: 1 });
    expect(props["items[]"]).toMatchObject({ types: ["object"] });
    expect(props["items[].sku"]).toMatchObject({ types: ["string"] });
    expect(props.at.types).toEqual(["date"]);
    expect(props.coupon.types).toEqual(["null"]);
    expect(Date.parse(props.total.first_seen)).toBeLessThanOrEqual(Date.parse(props.total.last_seen));
    // System events are discovered too (user.created for the new user).
    const all = await api("GET", p.admin("/schema"), { key: p.keys.support });
    expect(all.body.data.map((e: any) => e.event_name)).toEqual(expect.arrayContaining(["Checkout", "user.created"]));
    expect((await api("GET", p.admin("/schema"), { key: p.keys.client })).status).toBe(200);
    expect((await api("GET", p.admin("/schema"))).status).toBe(401);
  });
});

describe("GET /schema is bounded (issue 9.12)", () => {
  it("pages event names with a cursor and caps property paths per name", async () => {
    const q = await createTestProject("schema-bounds");
    const names = ["A.one", "B.two", "C.three"];
    for (const name of names) {
      await sql`insert into event_schema (project_id, event_name, path, types, count, first_seen, last_seen) values (${q.projectId}, ${name}, '', '{}', 1, now(), now())`;
    }
    await sql`insert into event_schema (project_id, event_name, path, types, count, first_seen, last_seen)
      select ${q.projectId}, 'A.one', 'p' || lpad(i::text, 5, '0'), '{string}', 1, now(), now() from generate_series(1, ${PROPERTIES_SHOWN + 5}) i`;
    const first = await api("GET", q.admin("/schema?limit=2"), { key: q.keys.support });
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: any) => e.event_name)).toEqual(["A.one", "B.two"]);
    expect(first.body.data[0].properties).toHaveLength(PROPERTIES_SHOWN);
    expect(first.body.data[0].properties_truncated).toBe(true);
    expect(first.body.data[1].properties_truncated).toBe(false);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api("GET", q.admin(`/schema?limit=2&cursor=${first.body.next_cursor}`), {
      key: q.keys.support,
    });
    expect(second.body.data.map((e: any) => e.event_name)).toEqual(["C.three"]);
    expect(second.body.next_cursor).toBeNull();
    expect((await api("GET", q.admin("/schema?limit=100000"), { key: q.keys.support })).status).toBe(400);
  });
});
