import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import {
  entryOf,
  journey,
  journeysSettled,
  p,
  pathOf,
  track,
  useJourneyProject,
  userId,
  wake,
} from "../../test/fixtures/journey-steps";
import { splitPath } from "./step-graph";

/*
 * Each kind of step with a real worker: delays, waits, branches, splits, updates, exits, and the counts
 * and paths they leave.
 */
useJourneyProject("journey-steps");

describe("journey steps", () => {
  it("delays by a duration, updates the user's data, and exits; the path and the counts say so", async () => {
    const j = await journey([
      { key: "wait-a-bit", kind: "delay", duration: "2 days" },
      { key: "mark", kind: "update", data: { onboarded: true } },
      { key: "bye", kind: "exit" },
    ]);
    const u = await userId("delay-user");
    await track("delay-user", j.event);
    const waiting = await entryOf(j.id, u, (e) => e.state === "waiting", "waiting at the delay");
    expect(waiting.step_key).toBe("wait-a-bit");
    const wakeIn = new Date(waiting.wake_at).getTime() - Date.now();
    expect(wakeIn).toBeGreaterThan(47 * 3600_000);
    expect(waiting.waiting_for).toMatchObject({ kind: "delay", duration: "2 days" });
    await wake(waiting.id);
    const done = await entryOf(j.id, u, (e) => e.state === "exited", "exited");
    expect(done.exited_at).not.toBeNull();
    const [user] = await sql`select data from users where id = ${u}`;
    expect(user!.data).toMatchObject({ onboarded: true });
    const view = await pathOf(j.id, done.id);
    expect(view.state).toBe("exited");
    expect(view.path.map((s: any) => [s.step_key, s.outcome])).toEqual([
      // A duration's end, in the project's zone (UTC by default), as an until-delay writes its own.
      ["wait-a-bit", expect.stringMatching(/^delayed until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 \(UTC\)$/)],
      ["mark", "updated data.onboarded"],
      ["bye", "exit"],
    ]);
    const exited =
      await sql`select data from events where project_id = ${p.projectId} and name = 'journey.user.exited' and user_id = ${u}`;
    expect(exited).toHaveLength(1);
    const counts = (await api("GET", p.admin(`/journeys/${j.id}`), { key: p.keys.support })).body.step_counts;
    expect(counts).toEqual({
      "wait-a-bit": { waiting: 0, waiting_capped: false, passed: 1 },
      mark: { waiting: 0, waiting_capped: false, passed: 1 },
      bye: { waiting: 0, waiting_capped: false, passed: 1 },
    });
  });

  it("moves entries woken together as one shape, each with its own times, path and exit event", async () => {
    // The moves' writer sends a batch's alike moves once (write-moves.ts) and fills in each entry's own
    // start, ids and event data in SQL: two entries that came to the delay at different times, woken in
    // one statement, must each keep theirs.
    const j = await journey([
      { key: "pause", kind: "delay", duration: "1 day" },
      { key: "out", kind: "exit" },
    ]);
    const users = [await userId("shape-a"), await userId("shape-b")];
    const waiting = [];
    for (const [i, u] of users.entries()) {
      await track(`shape-${"ab"[i]}`, j.event);
      waiting.push(await entryOf(j.id, u, (e) => e.state === "waiting", `${"ab"[i]} waits`));
    }
    expect(waiting[0]!.step_since.getTime()).not.toBe(waiting[1]!.step_since.getTime());
    await sql`update journey_entries set wake_at = now() - interval '1 second'
      where project_id = ${p.projectId} and id in ${sql(waiting.map((w) => w.id))}`;
    for (const [i, w] of waiting.entries()) {
      const done = await entryOf(j.id, users[i]!, (e) => e.state === "exited", `${"ab"[i]} exited`);
      const path = await sql`select seq, user_id, step_key, entered_at, left_at, outcome from journey_entry_steps
        where project_id = ${p.projectId} and entry_id = ${w.id} order by seq`;
      expect(path.map((r) => [r.seq, r.user_id, r.step_key])).toEqual([
        [1, users[i], "pause"],
        [2, users[i], "out"],
      ]);
      expect(path[0]!.entered_at.getTime()).toBe(w.step_since.getTime());
      expect(path[0]!.outcome).toMatch(/^delayed until .* \(UTC\)$/);
      expect(path[1]!.entered_at.getTime()).toBe(path[0]!.left_at.getTime());
      expect(path[1]!.outcome).toBe("exit");
      expect(done.step_since.getTime()).toBe(path[1]!.left_at.getTime());
      const exited = await sql`select data from events
        where project_id = ${p.projectId} and name = 'journey.user.exited' and user_id = ${users[i]}`;
      expect(exited.map((e) => e.data)).toEqual([
        { journey_id: j.id, journey_name: expect.any(String), entry_id: w.id, event_id: w.event_id },
      ]);
    }
  });

  it("counts the entries at a step up to a bound, and says when there are more", async () => {
    const j = await journey([
      { key: "long", kind: "delay", duration: "30 days" },
      { key: "after", kind: "exit" },
    ]);
    const [en] = await sql`select id from journey_entrances where journey_id = ${j.id}`;
    // 10,001 entries waiting at the delay, made in SQL (their users too): one more than the bound.
    await sql`
      with u as (insert into users (project_id) select ${p.projectId} from generate_series(1, 10001) returning id)
      insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state,
        wake_at, step_since, waiting_for)
      select ${p.projectId}, ${j.id}, ${en!.id}, u.id, gen_random_uuid(), '{}', 'long', 'waiting',
        now() + interval '30 days', now(), '{"kind": "delay", "duration": "30 days"}' from u`;
    const counts = (await api("GET", p.admin(`/journeys/${j.id}`), { key: p.keys.support })).body.step_counts;
    expect(counts).toEqual({
      long: { waiting: 10_000, waiting_capped: true, passed: 0 },
      after: { waiting: 0, waiting_capped: false, passed: 0 },
    });
  });

  it("releases a keyed wait only on the matching event, and times out otherwise", async () => {
    const j = await journey([
      {
        key: "await-order",
        kind: "wait",
        event: { name: "Order Completed", same_as: "cart_id", condition: [{ path: "total", op: "gt", value: 0 }] },
        timeout: "3 days",
        next: "won",
        timeout_next: "lost",
      },
      { key: "won", kind: "update", data: { outcome: "won" }, next: "end" },
      { key: "lost", kind: "update", data: { outcome: "lost" } },
      { key: "end", kind: "exit" },
    ]);
    const a = await userId("cart-a");
    const b = await userId("cart-b");
    await track("cart-a", j.event, { cart_id: "c1" });
    await track("cart-b", j.event, { cart_id: "c2" });
    const ea = await entryOf(j.id, a, (e) => e.state === "waiting", "a waits");
    const eb = await entryOf(j.id, b, (e) => e.state === "waiting", "b waits");
    expect(ea.wait_key).not.toBe(eb.wait_key);
    // Another cart's order, a failing condition, and another user's order of the same cart release nothing.
    await track("cart-a", "Order Completed", { cart_id: "c9", total: 10 });
    await track("cart-a", "Order Completed", { cart_id: "c1", total: 0 });
    await track("cart-b", "Order Completed", { cart_id: "c1", total: 10 });
    await journeysSettled("Order Completed", 3, "orders processed");
    expect((await entryOf(j.id, a, () => true)).state).toBe("waiting");
    expect((await entryOf(j.id, b, () => true)).state).toBe("waiting");
    // This cart's order releases a's wait.
    await track("cart-a", "Order Completed", { cart_id: "c1", total: 10 });
    await entryOf(j.id, a, (e) => e.state === "exited", "a released and done");
    const pa = await pathOf(j.id, ea.id);
    expect(pa.path.map((s: any) => s.step_key)).toEqual(["await-order", "won", "end"]);
    expect(pa.path[0].outcome).toMatch(/^released by event Order Completed /);
    // b times out: its timeout made due.
    await wake(eb.id);
    await entryOf(j.id, b, (e) => e.state === "exited", "b timed out");
    const pb = await pathOf(j.id, eb.id);
    expect(pb.path.map((s: any) => [s.step_key, s.outcome])).toEqual([
      ["await-order", "timed out"],
      ["lost", "updated data.outcome"],
      ["end", "exit"],
    ]);
    const data = await sql`select id, data->>'outcome' as o from users where id in (${a}, ${b}) order by id`;
    expect(Object.fromEntries(data.map((r) => [r.id, r.o]))).toEqual({ [a]: "won", [b]: "lost" });
  });

  it("branches by a rule in the list rule language and splits by the entry id", async () => {
    const j = await journey([
      {
        key: "is-pro",
        kind: "branch",
        rule: { property: { path: "data.plan", op: "eq", value: "pro" } },
        next: "pro",
        else_next: "ab",
      },
      { key: "pro", kind: "exit" },
      {
        key: "ab",
        kind: "split",
        paths: [
          { weight: 1, next: "a" },
          { weight: 1, next: "b" },
        ],
      },
      { key: "a", kind: "exit" },
      { key: "b", kind: "exit" },
    ]);
    const pro = await userId("branch-pro", { data: { plan: "pro" } });
    const free = await userId("branch-free", { data: { plan: "free" } });
    await track("branch-pro", j.event);
    await track("branch-free", j.event);
    const ep = await entryOf(j.id, pro, (e) => e.state === "exited");
    const ef = await entryOf(j.id, free, (e) => e.state === "exited");
    expect((await pathOf(j.id, ep.id)).path.map((s: any) => s.outcome)).toEqual(["branch: true", "exit"]);
    const fp = (await pathOf(j.id, ef.id)).path;
    const chosen = splitPath(ef.id, [1, 1]);
    expect(fp.map((s: any) => [s.step_key, s.outcome])).toEqual([
      ["is-pro", "branch: false"],
      ["ab", `split: path ${chosen + 1}`],
      [chosen === 0 ? "a" : "b", "exit"],
    ]);
  });

  it("delays until a time of day in the user's zone, falling back to the project's and to UTC, dropping nobody", async () => {
    const j = await journey([
      {
        key: "nine",
        kind: "delay",
        until: { time: "09:00", weekdays: ["mon", "tue", "wed", "thu", "fri"], timezone: "user" },
      },
    ]);
    await sql`update projects set timezone = 'America/New_York' where id = ${p.projectId}`;
    const vienna = await userId("tz-vienna", { timezone: "Europe/Vienna" });
    const none = await userId("tz-none");
    const bad = await userId("tz-bad");
    await sql`update users set timezone = 'Mars/Olympus' where id = ${bad}`;
    for (const u of ["tz-vienna", "tz-none", "tz-bad"]) await track(u, j.event);
    const ev = await entryOf(j.id, vienna, (e) => e.state === "waiting");
    const en = await entryOf(j.id, none, (e) => e.state === "waiting");
    const eb = await entryOf(j.id, bad, (e) => e.state === "waiting");
    expect(ev.waiting_for.zone).toBe("Europe/Vienna");
    expect(ev.waiting_for.outcome).toMatch(/^delayed until \d{4}-\d\d-\d\dT09:00:00\+0[12]:00 \(Europe\/Vienna\)$/);
    expect(en.waiting_for.zone).toBe("America/New_York");
    expect(en.waiting_for.outcome).toMatch(
      /T09:00:00-0[45]:00 \(America\/New_York: user has no zone; project's zone used\)/,
    );
    expect(eb.waiting_for.outcome).toMatch(
      /\(America\/New_York: user's zone "Mars\/Olympus" is invalid; project's zone used\)/,
    );
    // Each wakes at the first weekday 09:00 in its zone after it arrived (a Friday evening's is Monday's).
    for (const [e, zone] of [
      [ev, "Europe/Vienna"],
      [en, "America/New_York"],
      [eb, "America/New_York"],
    ] as const)
      expect(new Date(e.wake_at).toISOString(), zone).toBe(firstWeekdayNine(new Date(e.step_since), zone));
    // A project zone gone bad (written around the API) falls back to UTC.
    await sql`update projects set timezone = 'Nowhere/Land' where id = ${p.projectId}`;
    const late = await userId("tz-late");
    await track("tz-late", j.event);
    const el = await entryOf(j.id, late, (e) => e.state === "waiting");
    expect(el.waiting_for.outcome).toMatch(/T09:00:00\+00:00 \(UTC: user has no zone; UTC used\)/);
    expect(new Date(el.wake_at).toISOString()).toBe(firstWeekdayNine(new Date(el.step_since), "UTC"));
    await sql`update projects set timezone = 'UTC' where id = ${p.projectId}`;
    await wake(ev.id);
    await entryOf(j.id, vienna, (e) => e.state === "exited");
    expect((await pathOf(j.id, ev.id)).path[0].outcome).toBe(ev.waiting_for.outcome);
  });

  it("waits for a list: released when the user is added", async () => {
    const list = await api("POST", p.admin("/lists"), { key: p.keys.editor, body: { name: "VIP", kind: "static" } });
    expect(list.status, JSON.stringify(list.body)).toBe(201);
    const j = await journey([
      { key: "vip", kind: "wait", list: { list_id: list.body.id, in: true }, timeout: "1 day" },
    ]);
    const u = await userId("list-user");
    await track("list-user", j.event);
    const e = await entryOf(j.id, u, (x) => x.state === "waiting");
    expect(e.wait_event).toBe("list.user.added");
    const add = await api("POST", p.admin(`/lists/${list.body.id}/users`), {
      key: p.keys.editor,
      body: { user_ids: [u] },
    });
    expect(add.status, JSON.stringify(add.body)).toBeLessThan(300);
    await entryOf(j.id, u, (x) => x.state === "exited", "released by the list");
    expect((await pathOf(j.id, e.id)).path[0].outcome).toMatch(/^released by event list.user.added /);
  });
});

/**
 * The first whole hour after `after` that reads 09:00 on a Monday to Friday in `zone`, found by walking
 * hours rather than by the calendar arithmetic under test (the zones used here are whole hours from UTC).
 */
function firstWeekdayNine(after: Date, zone: string): string {
  const f = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  let t = Math.floor(after.getTime() / 3_600_000) * 3_600_000;
  for (let i = 0; i < 8 * 24; i++) {
    t += 3_600_000;
    const parts = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    if (parts.hour === "09" && parts.minute === "00" && !["Sat", "Sun"].includes(parts.weekday!))
      return new Date(t).toISOString();
  }
  throw new Error(`no weekday 09:00 within 8 days of ${after.toISOString()} in ${zone}`);
}
