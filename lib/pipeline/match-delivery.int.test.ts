import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

/*
 * Spec rows that only hold when the pipeline runs end to end: events delivered by `match` (user and
 * organization fan-out) reach lists and journeys like identified ones, and organizations the pipeline
 * creates from events get their anniversary assignment.
 */

useProjectWithWorker("match-delivery");

const client = (path: string, body: unknown) => api("POST", p.client(path), { key: p.keys.client, body });
const admin = (path: string, body: unknown) => api("POST", p.admin(path), { key: p.keys.editor, body });
const userId = async (external_id: string, data: Record<string, unknown>) =>
  (await client("/users", { identifier: [{ external_id }], data })).body.id as string;
const listMembers = async (listId: string) =>
  (
    await sql`select user_id from list_members where project_id = ${p.projectId} and list_id = ${listId} order by user_id`
  ).map((r) => r.user_id);
const entries = async (journeyId: string) =>
  sql`select user_id, context from journey_entries where project_id = ${p.projectId} and journey_id = ${journeyId} order by user_id`;

describe("match-delivered events", () => {
  it("a user `match` event reaches dynamic lists and journey entrances for every matched user, and no one else", async () => {
    const list = await admin("/lists", {
      name: "Saw promo",
      kind: "dynamic",
      rules: { event: { name: "PromoSeen", at_least: 1 } },
    });
    const journey = await admin("/journeys", {
      name: "Promo follow-up",
      entrances: [{ kind: "event", event_name: "PromoSeen", data_key: "promo" }],
    });
    expect([list.status, journey.status]).toEqual([201, 201]);
    const pro = [
      await userId("md-pro-1", { segment: "md-pro" }),
      await userId("md-pro-2", { segment: "md-pro" }),
    ].sort();
    const free = await userId("md-free", { segment: "md-free" });

    const sent = await client("/users/events", [
      { name: "PromoSeen", match: { segment: "md-pro" }, data: { code: "X" } },
    ]);
    expect(sent.status).toBe(202);
    await waitFor(
      async () => (await listMembers(list.body.id)).length === 2 && (await entries(journey.body.id)).length === 2,
      30_000,
      "match delivered",
    );
    expect(await listMembers(list.body.id)).toEqual(pro);
    const rows = await entries(journey.body.id);
    expect(rows.map((r) => r.user_id)).toEqual(pro);
    expect(rows.map((r) => r.context)).toEqual([{ promo: { code: "X" } }, { promo: { code: "X" } }]);
    expect(pro).not.toContain(free);
  });

  it("an organization `match` event enters the members of every matched organization into a journey", async () => {
    const journey = await admin("/journeys", {
      name: "Renewal",
      entrances: [{ kind: "event", event_name: "Renewed", data_key: "renewal" }],
    });
    expect(journey.status).toBe(201);
    await client("/organizations", { identifier: [{ external_id: "md-gold" }], data: { tier: "md-gold" } });
    await client("/organizations", { identifier: [{ external_id: "md-bronze" }], data: { tier: "md-bronze" } });
    const gold = [await userId("md-g1", {}), await userId("md-g2", {})].sort();
    const bronze = await userId("md-b1", {});
    for (const [org, u] of [
      ["md-gold", "md-g1"],
      ["md-gold", "md-g2"],
      ["md-bronze", "md-b1"],
    ]) {
      expect(
        (
          await client("/organizations/users", {
            organization: { identifier: [{ external_id: org }] },
            user: { identifier: [{ external_id: u }] },
          })
        ).status,
      ).toBe(201);
    }
    const sent = await client("/organizations/events", [
      { name: "Renewed", match: { tier: "md-gold" }, data: { term: "annual" } },
    ]);
    expect(sent.status).toBe(202);
    await waitFor(async () => (await entries(journey.body.id)).length === 2, 30_000, "members entered");
    const rows = await entries(journey.body.id);
    expect(rows.map((r) => r.user_id)).toEqual(gold);
    expect(rows[0]!.context).toEqual({ renewal: { term: "annual" } });
    expect(rows.map((r) => r.user_id)).not.toContain(bronze);
  });
});

describe("organizations created by events", () => {
  it("get their anniversary assignment, anchored at creation", async () => {
    const sent = await client("/organizations/events", [
      { name: "Signed", identifier: [{ external_id: "md-new-org" }], data: {} },
    ]);
    expect(sent.status).toBe(202);
    const rows = await waitFor(
      async () => {
        const r = await sql`
          select o.created_at, a.anchor, a.interval, a.state, s.name from organization_identifiers i
          join organizations o on o.project_id = i.project_id and o.id = i.organization_id
          join schedule_assignments a on a.project_id = o.project_id and a.organization_id = o.id
          join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
          where i.project_id = ${p.projectId} and i.external_id = 'md-new-org'`;
        return r.length ? r : false;
      },
      30_000,
      "organization with its anniversary",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "anniversary", interval: "1 year", state: "active" });
    expect(new Date(rows[0]!.anchor).getTime()).toBe(new Date(rows[0]!.created_at).getTime());
  });
});
