import { describe, expect, it } from "vitest";
import { eventsOf, ownDatabaseForFile, snapshotCounts } from "../../scripts/test/helpers";
import { anniversaries, batchProjectForFile, p, post } from "../../test/fixtures/identity-batches";

// Compares row and event counts that a worker draining event_intake would change: a database of its own.
ownDatabaseForFile("relay_organization_batches");
batchProjectForFile();

describe("POST /organizations/batch, set-based", () => {
  it("merges duplicates in order, records organization.created and an anniversary per new organization, atomic on conflict", async () => {
    const res = await post("/organizations/batch", [
      { identifier: [{ external_id: "org-a" }], name: "A", data: { tier: "free" } },
      { identifier: [{ external_id: "org-b" }], name: "B" },
      { identifier: [{ external_id: "org-a" }], name: "A2", data: { seats: 3 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 1 });
    expect(res.body.data[2]).toMatchObject({ id: res.body.data[0].id, name: "A2", data: { tier: "free", seats: 3 } });
    const ids = [res.body.data[0].id, res.body.data[1].id];
    expect(
      (await eventsOf(p.projectId, "organization.created")).filter((e) => ids.includes(e.organization_id)),
    ).toHaveLength(2);
    expect(await anniversaries("organization_id", ids)).toBe(2);

    const before = await snapshotCounts(p.projectId);
    const bad = await post("/organizations/batch", [
      { identifier: [{ external_id: "org-c" }] },
      { identifier: [{ external_id: "org-a" }, { external_id: "org-b" }] },
    ]);
    expect(bad.status).toBe(409);
    expect(bad.body.errors[0].path).toBe("[1].identifier");
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });
});

describe("POST /organizations/users/batch", () => {
  it("adds up to 1,000 memberships at once, merging repeats in order, with one event each", async () => {
    const orgs = await post(
      "/organizations/batch",
      Array.from({ length: 10 }, (_, i) => ({ identifier: [{ external_id: `m-org-${i}` }] })),
    );
    const users = await post(
      "/users/batch",
      Array.from({ length: 100 }, (_, i) => ({ identifier: [{ external_id: `m-user-${i}` }] })),
    );
    expect(orgs.status).toBe(200);
    expect(users.status).toBe(200);
    const items = Array.from({ length: 1000 }, (_, i) => ({
      organization: { identifier: [{ external_id: `m-org-${i % 10}` }] },
      user: { identifier: [{ external_id: `m-user-${Math.floor(i / 10)}` }] },
      data: { role: "member", i },
    }));
    const res = await post("/organizations/users/batch", items);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1000, updated: 0 });
    expect(res.body.data[517]).toMatchObject({
      organization_id: orgs.body.data[7].id,
      user_id: users.body.data[51].id,
      data: { role: "member", i: 517 },
    });
    const added = (await eventsOf(p.projectId, "organization.user.added")).filter((e) =>
      orgs.body.data.some((o: any) => o.id === e.organization_id),
    );
    expect(added).toHaveLength(1000);

    const again = await post("/organizations/users/batch", [
      {
        organization: { identifier: [{ external_id: "m-org-0" }] },
        user: { identifier: [{ external_id: "m-user-0" }] },
        data: { role: "owner" },
      },
      {
        organization: { identifier: [{ external_id: "m-org-0" }] },
        user: { identifier: [{ external_id: "m-user-0" }] },
        data: { since: 2020 },
      },
      {
        organization: { identifier: [{ external_id: "m-org-1" }] },
        user: { identifier: [{ external_id: "m-user-0" }] },
        data: { role: "member" },
      },
    ]);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 3 });
    expect(again.body.data[1].data).toEqual({ role: "owner", i: 0, since: 2020 });
    const updated = (await eventsOf(p.projectId, "organization.user.updated")).filter(
      (e) => e.organization_id === orgs.body.data[0].id,
    );
    expect(updated.map((e) => e.data.changed)).toEqual([["data.role", "data.since"]]);
    expect(
      (await eventsOf(p.projectId, "organization.user.updated")).filter(
        (e) => e.organization_id === orgs.body.data[1].id,
      ),
    ).toHaveLength(0);
  });

  it("rejects the whole batch when item 517's user is missing, naming its path", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      organization: { identifier: [{ external_id: `m-org-${i % 10}` }] },
      user: { identifier: [{ external_id: i === 517 ? "nobody" : `m-user-${Math.floor(i / 10)}` }] },
      data: { fresh: true },
    }));
    const before = await snapshotCounts(p.projectId);
    const res = await post("/organizations/users/batch", items);
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ path: "[517].user.identifier", message: "no user has these identifiers" }]);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    const tooMany = await post("/organizations/users/batch", [...items, ...items.slice(0, 1)]);
    expect(tooMany.status).toBe(400);
  });
});
