import { describe, expect, it } from "vitest";
import { api, createTestProject, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

useProjectWithWorker("journeys");

const createJourney = (body: unknown, key = p.keys.editor) => api("POST", p.admin("/journeys"), { key, body });
const upsertUser = async (external_id: string, data: Record<string, unknown> = {}) =>
  (await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: [{ external_id }], data } })).body
    .id as string;
const track = (external_id: string, name: string, data: Record<string, unknown>) =>
  api("POST", p.client("/users/events"), { key: p.keys.client, body: [{ name, identifier: [{ external_id }], data }] });
const entries = async (journeyId: string) =>
  sql`select * from journey_entries where project_id = ${p.projectId} and journey_id = ${journeyId} order by entered_at, id`;
/** Waits until `expected` events of `name` are recorded and no journeys step job is left to run. */
const settle = async (name: string, expected: number) =>
  waitFor(
    async () => {
      const [{ n }] =
        await sql`select count(*)::int as n from events where project_id = ${p.projectId} and name = ${name}`;
      const [{ q }] =
        await sql`select count(*)::int as q from pgboss.job where name = 'pipeline.journeys' and state in ('created', 'retry', 'active')`;
      return n === expected && q === 0;
    },
    20_000,
    `pipeline settled for ${name}`,
  );

describe("journey entrances", () => {
  it("enters a user on a matching event with the data as journey.<key>, once unless multiple entries are allowed", async () => {
    const j = await createJourney({
      name: "Big order follow-up",
      entrances: [
        {
          kind: "event",
          event_name: "Ordered",
          condition: [{ path: "total", op: "gt", value: 100 }],
          data_key: "order",
        },
      ],
    });
    expect(j.status).toBe(201);
    expect(j.body).toMatchObject({
      allow_multiple_entries: false,
      allow_concurrent_runs: false,
      entrances: [{ kind: "event", event_name: "Ordered", data_key: "order" }],
    });
    const u = await upsertUser("buyer");
    await track("buyer", "Ordered", { total: 50 });
    await track("buyer", "Ordered", { total: 150, sku: "A" });
    await waitFor(async () => (await entries(j.body.id)).length === 1, 20_000, "entry");
    await track("buyer", "Ordered", { total: 300 });
    await settle("Ordered", 3);
    const rows = await entries(j.body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: u, context: { order: { total: 150, sku: "A" } } });
    const read = await api("GET", p.admin(`/journeys/${j.body.id}/entries`), { key: p.keys.support });
    expect(read.body.data[0]).toMatchObject({ user_id: u, context: { order: { total: 150, sku: "A" } } });
  });

  it("records on each entry whether the user is reachable per channel (contact present, no channel opt-out), and the API shows it", async () => {
    const j = await createJourney({
      name: "Reachability",
      allow_multiple_entries: true,
      entrances: [{ kind: "event", event_name: "Reach", data_key: "r" }],
    });
    const post = (body: unknown) => api("POST", p.client("/users"), { key: p.keys.client, body });
    const all = (
      await post({ identifier: [{ external_id: "reach-all" }], email: "all@example.com", phone: "+14155550101" })
    ).body.id;
    const stopped = (
      await post({ identifier: [{ external_id: "reach-stop" }], email: "stop@example.com", phone: "+14155550102" })
    ).body.id;
    const none = (await post({ identifier: [{ external_id: "reach-none" }] })).body.id;
    await sql`insert into user_channel_opt_outs (project_id, user_id, channel, source) values (${p.projectId}, ${stopped}, 'sms', 'sms')`;
    for (const u of ["reach-all", "reach-stop", "reach-none"]) await track(u, "Reach", {});
    await waitFor(async () => (await entries(j.body.id)).length === 3, 20_000, "three entries");
    const byUser = Object.fromEntries((await entries(j.body.id)).map((e) => [e.user_id, e.sendable]));
    expect(byUser).toEqual({
      [all]: { email: true, sms: true, push: true },
      [stopped]: { email: true, sms: false, push: true },
      [none]: { email: false, sms: false, push: true },
    });
    const read = await api("GET", p.admin(`/journeys/${j.body.id}/entries?user_id=${stopped}`), {
      key: p.keys.support,
    });
    expect(read.body.data.map((e: { sendable: unknown }) => e.sendable)).toEqual([
      { email: true, sms: false, push: true },
    ]);
  });

  it("honours re-entry: multiple entries without concurrent runs waits for the active entry to exit", async () => {
    const j = await createJourney({
      name: "Nudge",
      allow_multiple_entries: true,
      entrances: [{ kind: "event", event_name: "Abandoned", data_key: "cart" }],
    });
    await upsertUser("nudge");
    await track("nudge", "Abandoned", { n: 1 });
    await waitFor(async () => (await entries(j.body.id)).length === 1);
    await track("nudge", "Abandoned", { n: 2 });
    await settle("Abandoned", 2);
    expect(await entries(j.body.id)).toHaveLength(1);
    const [first] = await entries(j.body.id);
    expect(
      (await api("POST", p.admin(`/journeys/${j.body.id}/entries/${first!.id}/exit`), { key: p.keys.support })).status,
    ).toBe(403);
    expect(
      (await api("POST", p.admin(`/journeys/${j.body.id}/entries/${first!.id}/exit`), { key: p.keys.editor })).status,
    ).toBe(204);
    expect(
      (await api("POST", p.admin(`/journeys/${j.body.id}/entries/${first!.id}/exit`), { key: p.keys.editor })).status,
    ).toBe(404);
    await track("nudge", "Abandoned", { n: 3 });
    await waitFor(async () => (await entries(j.body.id)).length === 2);
    expect((await entries(j.body.id))[1]!.context).toEqual({ cart: { n: 3 } });

    const c = await createJourney({
      name: "Every time",
      allow_multiple_entries: true,
      allow_concurrent_runs: true,
      entrances: [{ kind: "event", event_name: "Pinged", data_key: "ping" }],
    });
    await track("nudge", "Pinged", { n: 1 });
    await track("nudge", "Pinged", { n: 2 });
    await waitFor(async () => (await entries(c.body.id)).length === 2);
  });

  it("enters the members of an organization on an organization event, filtered by a user rule", async () => {
    const j = await createJourney({
      name: "Admin onboarding",
      entrances: [
        {
          kind: "event",
          event_name: "Plan Upgraded",
          user_rule: { property: { path: "data.role", op: "eq", value: "admin" } },
          data_key: "upgrade",
        },
      ],
    });
    const admin = await upsertUser("org-admin", { role: "admin" });
    await upsertUser("org-user", { role: "user" });
    await api("POST", p.client("/organizations"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "globex" }] },
    });
    for (const m of ["org-admin", "org-user"]) {
      await api("POST", p.client("/organizations/users"), {
        key: p.keys.client,
        body: { organization: { identifier: [{ external_id: "globex" }] }, user: { identifier: [{ external_id: m }] } },
      });
    }
    await api("POST", p.client("/organizations/events"), {
      key: p.keys.client,
      body: [{ name: "Plan Upgraded", identifier: [{ external_id: "globex" }], data: { plan: "enterprise" } }],
    });
    await waitFor(async () => (await entries(j.body.id)).length === 1);
    await settle("Plan Upgraded", 1);
    const rows = await entries(j.body.id);
    expect(rows.map((r) => r.user_id)).toEqual([admin]);
    expect(rows[0]!.context).toEqual({ upgrade: { plan: "enterprise" } });
  });

  it("enters users when a scheduled entrance's schedule and offset fire (a scheduled.* system event)", async () => {
    const s = (
      await api("POST", p.admin("/schedules"), {
        key: p.keys.editor,
        body: { name: "trial_end", type: "single", offsets: [{ offset: "3 days", direction: "before" }] },
      })
    ).body;
    const scheduleId: string = s.id;
    const offsetId: string = s.offsets.find((o: { direction: string }) => o.direction === "before").id;
    const j = await createJourney({
      name: "Trial ending",
      entrances: [{ kind: "scheduled", schedule_id: scheduleId, schedule_offset_id: offsetId, data_key: "trial" }],
    });
    expect(j.body.entrances[0]).toMatchObject({
      kind: "scheduled",
      schedule_id: scheduleId,
      schedule_offset_id: offsetId,
    });
    const u = await upsertUser("trialist");
    const { getDb } = await import("../../db/client");
    const { recordSystemEvents } = await import("../events/record-system-events");
    const { systemContext } = await import("../access/context");
    const fire = (offset: string) =>
      getDb().transaction((tx) =>
        recordSystemEvents(systemContext(tx, p.projectId), [
          {
            name: "scheduled.trial_end",
            userId: u,
            data: {
              schedule_id: scheduleId,
              schedule_offset_id: offset,
              offset: "-3 days",
              fire_at: new Date().toISOString(),
              plan: "pro",
            },
          },
        ]),
      );
    await fire(s.offsets.find((o: { direction: string }) => o.direction === "after").id);
    await fire(offsetId);
    await waitFor(async () => (await entries(j.body.id)).length === 1);
    await settle("scheduled.trial_end", 2);
    const rows = await entries(j.body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.context).toMatchObject({
      trial: { schedule_id: scheduleId, schedule_offset_id: offsetId, plan: "pro" },
    });
  });

  it("validates input, needs editor to write and support to read, and deletes", async () => {
    expect((await createJourney({ name: "x", entrances: [] })).status).toBe(400);
    expect((await createJourney({ name: "x", entrances: [{ kind: "scheduled", schedule_id: "nope" }] })).status).toBe(
      400,
    );
    // Issue 9.10: a schedule or offset of another project (or none) is a 404 naming the field, and writes nothing.
    const other = await createTestProject("journeys-other");
    const foreign = (
      await api("POST", other.admin("/schedules"), {
        key: other.keys.editor,
        body: { name: "foreign", type: "single" },
      })
    ).body;
    const mine = (
      await api("POST", p.admin("/schedules"), { key: p.keys.editor, body: { name: "mine_only", type: "single" } })
    ).body;
    const before = (await sql`select count(*)::int as n from journeys where project_id = ${p.projectId}`)[0]!.n;
    const cross = await createJourney({
      name: "cross",
      entrances: [{ kind: "scheduled", schedule_id: foreign.id, schedule_offset_id: foreign.offsets[0].id }],
    });
    expect(cross.status).toBe(404);
    expect(cross.body.errors).toEqual([
      { path: "entrances[0].schedule_id", message: "no such schedule in this project" },
    ]);
    const mixed = await createJourney({
      name: "mixed",
      entrances: [
        { kind: "event", event_name: "A" },
        { kind: "scheduled", schedule_id: mine.id, schedule_offset_id: foreign.offsets[0].id },
      ],
    });
    expect(mixed.status).toBe(404);
    expect(mixed.body.errors).toEqual([
      { path: "entrances[1].schedule_offset_id", message: "no such offset of this schedule" },
    ]);
    expect((await sql`select count(*)::int as n from journeys where project_id = ${p.projectId}`)[0]!.n).toBe(before);
    expect(
      (await createJourney({ name: "x", entrances: [{ kind: "event", event_name: "A", data_key: "1bad" }] })).status,
    ).toBe(400);
    expect(
      (await createJourney({ name: "x", entrances: [{ kind: "event", event_name: "A" }] }, p.keys.support)).status,
    ).toBe(403);
    const j = await createJourney({ name: "tmp", entrances: [{ kind: "event", event_name: "A" }] });
    expect(j.body.entrances[0].data_key).toBe("event");
    expect((await api("GET", p.admin(`/journeys/${j.body.id}`), { key: p.keys.support })).status).toBe(200);
    expect((await api("GET", p.admin("/journeys"), { key: p.keys.support })).body.data.length).toBeGreaterThan(0);
    expect((await api("DELETE", p.admin(`/journeys/${j.body.id}`), { key: p.keys.support })).status).toBe(403);
    expect((await api("DELETE", p.admin(`/journeys/${j.body.id}`), { key: p.keys.editor })).status).toBe(204);
    expect((await api("GET", p.admin(`/journeys/${j.body.id}`), { key: p.keys.support })).status).toBe(404);
  });
});
