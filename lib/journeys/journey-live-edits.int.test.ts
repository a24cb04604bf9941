import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { entryOf, journey, p, pathOf, track, useJourneyProject, userId, wake } from "../../test/fixtures/journey-steps";

/*
 * Editing a live journey with users inside: removed steps, changed delays and waits, pause, and
 * organization events releasing members' waits.
 */
useJourneyProject("journey-live-edits");

describe("editing a live journey", () => {
  it("moves users at a removed step on at once, applies a changed delay to later arrivals, and holds everyone while paused", async () => {
    const j = await journey([
      { key: "d1", kind: "delay", duration: "1 day" },
      { key: "d2", kind: "delay", duration: "1 hour" },
      { key: "last", kind: "update", data: { reached: "last" } },
    ]);
    const u1 = await userId("edit-1");
    await track("edit-1", j.event);
    const e1 = await entryOf(j.id, u1, (e) => e.step_key === "d1" && e.state === "waiting");
    const patch = (body: unknown) => api("PATCH", p.admin(`/journeys/${j.id}`), { key: p.keys.editor, body });
    // d1 removed; d2's delay changed to 2 hours: edit-1 moves to d2 at once and waits the new 2 hours.
    const r = await patch({
      steps: [
        { key: "d2", kind: "delay", duration: "2 hours" },
        { key: "last", kind: "update", data: { reached: "last" } },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const moved = await entryOf(j.id, u1, (e) => e.step_key === "d2" && e.state === "waiting", "moved to d2");
    expect(new Date(moved.wake_at).getTime() - Date.now()).toBeGreaterThan(90 * 60_000);
    expect((await pathOf(j.id, e1.id)).path[0]).toMatchObject({
      step_key: "d1",
      outcome: "step removed by an edit: moved to d2",
    });
    // Paused: a due entry stays where it is; resumed, it moves on.
    expect((await patch({ paused: true })).body.paused).toBe(true);
    await wake(e1.id);
    await new Promise((r) => setTimeout(r, 400));
    expect((await entryOf(j.id, u1, () => true)).step_key).toBe("d2");
    await patch({ paused: false });
    await entryOf(j.id, u1, (e) => e.state === "exited", "resumed and done");
    const [user] = await sql`select data from users where id = ${u1}`;
    expect(user!.data).toMatchObject({ reached: "last" });
  });

  it("re-keys the users waiting at a wait whose same_as an edit changes: the new key releases them, the old does not", async () => {
    const steps = (sameAs: string) => [
      { key: "await-pay", kind: "wait", event: { name: "Paid", same_as: sameAs }, timeout: "3 days", next: "paid" },
      { key: "paid", kind: "update", data: { paid: true } },
    ];
    const j = await journey(steps("cart_id"));
    const u = await userId("rekey-1");
    await track("rekey-1", j.event, { cart_id: "c1", order_id: "o1" });
    const before = await entryOf(j.id, u, (e) => e.state === "waiting", "waiting by cart");
    const r = await api("PATCH", p.admin(`/journeys/${j.id}`), {
      key: p.keys.editor,
      body: { steps: steps("order_id") },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await entryOf(j.id, u, (e) => e.state === "waiting" && e.waiting_for.same_as === "order_id");
    expect(after.wait_key).toBe(`${u}|order_id="o1"`);
    expect(after.waiting_for).toMatchObject({ name: "Paid", same_as: "order_id", value: "o1" });
    // The timeout the user was given stays.
    expect(new Date(after.wake_at).getTime()).toBe(new Date(before.wake_at).getTime());
    // The old key's value no longer releases the wait; the new one's does.
    await track("rekey-1", "Paid", { cart_id: "c1", order_id: "o2" });
    await waitFor(
      async () =>
        (
          await sql`select 1 from pgboss.job where name = 'pipeline.journeys' and state in ('created','retry','active') and data->>'projectId' = ${p.projectId}`
        ).length === 0 &&
        (await sql`select 1 from events where project_id = ${p.projectId} and name = 'Paid'`).length === 1,
      20_000,
      "the other order processed",
    );
    expect((await entryOf(j.id, u, () => true)).state).toBe("waiting");
    await track("rekey-1", "Paid", { order_id: "o1" });
    await entryOf(j.id, u, (e) => e.state === "exited", "released by its order");
    expect((await pathOf(j.id, before.id)).path[0].outcome).toMatch(/^released by event Paid /);
  });

  it("runs a step at once for the users waiting at a wait an edit turns into another kind", async () => {
    const j = await journey([{ key: "hold", kind: "wait", event: { name: "Never Sent" } }]);
    const u = await userId("rekind-1");
    await track("rekind-1", j.event);
    const waiting = await entryOf(j.id, u, (e) => e.state === "waiting", "waiting for the event");
    const r = await api("PATCH", p.admin(`/journeys/${j.id}`), {
      key: p.keys.editor,
      body: { steps: [{ key: "hold", kind: "update", data: { rekinded: true } }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await entryOf(j.id, u, (e) => e.state === "exited", "ran the new step and exited");
    expect((await pathOf(j.id, waiting.id)).path.map((s: any) => [s.step_key, s.outcome])).toEqual([
      ["hold", "updated data.rekinded"],
    ]);
  });

  it("releases a member's wait on an event of their organization, and not a non-member's", async () => {
    const j = await journey([
      { key: "await-upgrade", kind: "wait", event: { name: "Org Upgraded" }, next: "done" },
      { key: "done", kind: "exit" },
    ]);
    const member = await userId("org-wait-member");
    const outsider = await userId("org-wait-outsider");
    await track("org-wait-member", j.event);
    await track("org-wait-outsider", j.event);
    await entryOf(j.id, member, (e) => e.state === "waiting", "member waits");
    await entryOf(j.id, outsider, (e) => e.state === "waiting", "outsider waits");
    await api("POST", p.client("/organizations"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "wait-org" }] },
    });
    await api("POST", p.client("/organizations/users"), {
      key: p.keys.client,
      body: {
        organization: { identifier: [{ external_id: "wait-org" }] },
        user: { identifier: [{ external_id: "org-wait-member" }] },
      },
    });
    const sent = await api("POST", p.client("/organizations/events"), {
      key: p.keys.client,
      body: [{ name: "Org Upgraded", identifier: [{ external_id: "wait-org" }], data: { plan: "pro" } }],
    });
    expect(sent.status).toBe(202);
    const done = await entryOf(j.id, member, (e) => e.state === "exited", "member released");
    expect((await pathOf(j.id, done.id)).path[0].outcome).toMatch(/^released by event Org Upgraded /);
    expect((await entryOf(j.id, outsider, () => true)).state).toBe("waiting");
  });
});
