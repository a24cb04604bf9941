import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import {
  entryOf,
  holdEntry,
  journey,
  journeysSettled,
  p,
  pathOf,
  track,
  useJourneyProject,
  userId,
  wake,
} from "../../test/fixtures/journey-steps";

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
    // Paused: a due entry stays where it is; resumed, it moves on. What shows the due loop has passed it
    // by: an entry of a journey not paused, due a second after it, moves on (claims take the oldest due first).
    const control = await journey([
      { key: "wait", kind: "delay", duration: "1 day" },
      { key: "mark", kind: "update", data: { control: true } },
    ]);
    const uc = await userId("edit-control");
    await track("edit-control", control.event);
    const ec = await entryOf(control.id, uc, (e) => e.state === "waiting", "the control entry waiting");
    expect((await patch({ paused: true })).body.paused).toBe(true);
    await sql`update journey_entries set wake_at = now() - interval '2 seconds'
      where project_id = ${p.projectId} and id = ${e1.id}`;
    await sql`update journey_entries set wake_at = now() - interval '1 second'
      where project_id = ${p.projectId} and id = ${ec.id}`;
    await entryOf(control.id, uc, (e) => e.state === "exited", "the control entry moved on");
    expect(await entryOf(j.id, u1, () => true)).toMatchObject({ step_key: "d2", state: "waiting" });
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
    await journeysSettled("Paid", 1, "the other order processed");
    expect((await entryOf(j.id, u, () => true)).state).toBe("waiting");
    await track("rekey-1", "Paid", { order_id: "o1" });
    await entryOf(j.id, u, (e) => e.state === "exited", "released by its order");
    expect((await pathOf(j.id, before.id)).path[0].outcome).toMatch(/^released by event Paid /);
  });

  it("re-keys more users than one batch in the worker, and an event that comes before its user's batch still releases them", async () => {
    const steps = (sameAs: string) => [
      { key: "await-pay", kind: "wait", event: { name: "Paid", same_as: sameAs }, timeout: "3 days", next: "paid" },
      { key: "paid", kind: "exit" },
    ];
    const j = await journey(steps("cart_id"));
    // Two and a half of the worker's batches (STEP_EDIT_BATCH, 1,000).
    const n = 2500;
    for (let i = 0; i < n; i += 1000) {
      const body = Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({
        name: j.event,
        identifier: [{ external_id: `bulk-${i + k}` }],
        data: { cart_id: `c${i + k}`, order_id: `o${i + k}` },
      }));
      expect((await api("POST", p.client("/users/events"), { key: p.keys.client, body })).status).toBe(202);
    }
    const waiting = async (where: ReturnType<typeof sql>) =>
      (
        await sql`select count(*)::int as n from journey_entries where project_id = ${p.projectId} and journey_id = ${j.id} and state = 'waiting' and ${where}`
      )[0]!.n as number;
    await waitFor(async () => (await waiting(sql`wait_key like '%|cart_id=%'`)) === n, 120_000, "all waiting by cart");
    const [first] =
      await sql`select id from journey_entries where project_id = ${p.projectId} and journey_id = ${j.id} order by id limit 1`;
    // The entry the worker's last batch re-keys (ids in order), and its order id.
    const [last] = await sql`select e.id, e.user_id, i.external_id from journey_entries e
      join user_identifiers i on i.project_id = e.project_id and i.user_id = e.user_id
      where e.project_id = ${p.projectId} and e.journey_id = ${j.id} order by e.id desc limit 1`;
    // Held here, the first entry keeps the worker's first batch from committing: no batch re-keys anyone
    // until it is let go.
    const held = await holdEntry(first!.id);
    try {
      const started = Date.now();
      const r = await api("PATCH", p.admin(`/journeys/${j.id}`), {
        key: p.keys.editor,
        body: { steps: steps("order_id") },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      // The request does not touch the entries (a held one would have made it wait).
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await waiting(sql`wait_key like '%|order_id=%'`)).toBe(0);
      const external = String(last!.external_id);
      await track(external, "Paid", { order_id: `o${external.slice("bulk-".length)}` });
      const done = await entryOf(j.id, last!.user_id, (e) => e.state === "exited", "released before its batch");
      expect((await pathOf(j.id, done.id)).path[0].outcome).toMatch(/^released by event Paid /);
      expect(await waiting(sql`wait_key like '%|order_id=%'`)).toBe(0);
    } finally {
      await held.release();
    }
    // Let go, the worker re-keys the rest in batches and drops the edit.
    await waitFor(
      async () => (await waiting(sql`wait_key like '%|order_id=%'`)) === n - 1,
      60_000,
      "the rest re-keyed",
    );
    expect(await waiting(sql`wait_key like '%|cart_id=%'`)).toBe(0);
    await waitFor(
      async () =>
        (await sql`select 1 from journey_edits where project_id = ${p.projectId} and journey_id = ${j.id}`).length ===
        0,
      20_000,
      "the edit applied",
    );
  });

  it("leaves a user whose delay at a removed step ends before the edit's batch reaches them to that batch, which moves them on", async () => {
    const j = await journey([
      { key: "gone", kind: "delay", duration: "1 day" },
      { key: "tag", kind: "update", data: { tagged: true } },
    ]);
    const [a, b] = [await userId("removed-a"), await userId("removed-b")];
    await track("removed-a", j.event);
    const first = await entryOf(j.id, a, (e) => e.state === "waiting", "a waiting");
    await track("removed-b", j.event);
    const second = await entryOf(j.id, b, (e) => e.state === "waiting", "b waiting");
    expect(second.id > first.id).toBe(true);
    // Held here, a's entry keeps the edit's page (entries in id order) from reaching b.
    const held = await holdEntry(first.id);
    try {
      const r = await api("PATCH", p.admin(`/journeys/${j.id}`), {
        key: p.keys.editor,
        body: { steps: [{ key: "tag", kind: "update", data: { tagged: true } }] },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      // b's delay ends while the page waits: the due loop claims b and must not walk it off the journey.
      await wake(second.id);
      await waitFor(
        async () => (await sql`select 1 from journey_entries where id = ${second.id} and wake_at > now()`).length === 1,
        20_000,
        "the due loop left b for the edit",
      );
      expect((await entryOf(j.id, b, () => true)).state).toBe("waiting");
    } finally {
      await held.release();
    }
    for (const [user, entry] of [
      [a, first],
      [b, second],
    ] as const) {
      await entryOf(j.id, user, (e) => e.state === "exited", "moved on and done");
      expect((await pathOf(j.id, entry.id)).path.map((s: any) => s.outcome)).toEqual([
        "step removed by an edit: moved to tag",
        "updated data.tagged",
      ]);
    }
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
