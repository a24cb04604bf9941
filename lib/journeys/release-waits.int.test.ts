import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { entryOf, holdEntry, journey, p, track, useJourneyProject, userId } from "../../test/fixtures/journey-steps";
import { MEMBER_PAGE } from "./release-waits";

/*
 * What the pipeline's journeys step releases, keyed in SQL: `same_as` values of every JSON type match the
 * keys the walk made in JavaScript, and an organization event reaches every member of a large organization,
 * page after page.
 */
useJourneyProject("journey-release-waits");

const stepsIdle = () =>
  waitFor(
    async () =>
      (
        await sql`select 1 from pgboss.job where name like 'pipeline.%' and state in ('created','retry','active')
          and data->>'projectId' = ${p.projectId} limit 1`
      ).length === 0 && (await sql`select 1 from event_intake where project_id = ${p.projectId} limit 1`).length === 0,
    30_000,
    "pipeline idle",
  );

describe("releasing waits", () => {
  it("matches a `same_as` value of each JSON type as the wait's key has it, and only that value", async () => {
    const j = await journey([
      { key: "w", kind: "wait", event: { name: "Ref Done", same_as: "ref" }, next: "bye" },
      { key: "bye", kind: "exit" },
    ]);
    const values: Record<string, unknown> = {
      string: 'a "quoted" \\ line\nwith ✓ é and \u0001',
      integer: 12345,
      negative: -7,
      decimal: 1.5,
      big: 1234567890123456,
      boolean: true,
      object: { b: 1, a: [1, "x", null] },
      missing: undefined,
    };
    const users: Record<string, string> = {};
    for (const [kind, v] of Object.entries(values)) {
      users[kind] = await userId(`ref-${kind}`);
      await track(`ref-${kind}`, j.event, v === undefined ? {} : { ref: v });
    }
    for (const kind of Object.keys(values)) await entryOf(j.id, users[kind]!, (e) => e.state === "waiting", kind);
    // Near misses first: the same text as another type, and another value.
    await track("ref-integer", "Ref Done", { ref: "12345" });
    await track("ref-decimal", "Ref Done", { ref: "1.5" });
    await track("ref-boolean", "Ref Done", { ref: "true" });
    await track("ref-object", "Ref Done", { ref: { a: [1, "x", null], b: 2 } });
    await track("ref-missing", "Ref Done", { ref: "null" });
    await track("ref-string", "Ref Done", { ref: "a" });
    await stepsIdle();
    for (const kind of Object.keys(values))
      expect((await entryOf(j.id, users[kind]!, () => true)).state, kind).toBe("waiting");
    for (const [kind, v] of Object.entries(values))
      await track(`ref-${kind}`, "Ref Done", v === undefined ? {} : { ref: v });
    for (const kind of Object.keys(values))
      await entryOf(j.id, users[kind]!, (e) => e.state === "exited", `${kind} released`);
  });

  it("releases the waiting members of an organization larger than a page, and no one else", async () => {
    const members = 2 * MEMBER_PAGE + 1;
    const j = await journey([
      { key: "w", kind: "wait", event: { name: "Org Renewed", same_as: "plan" }, next: "bye" },
      { key: "bye", kind: "exit" },
    ]);
    const org = await api("POST", p.client("/organizations"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "big-org" }] },
    });
    expect(org.status, JSON.stringify(org.body)).toBeLessThan(300);
    const [{ id: orgId }] = await sql`select organization_id as id from organization_identifiers
      where project_id = ${p.projectId} and external_id = 'big-org'`;
    const [{ id: entranceId }] =
      await sql`select id from journey_entrances where project_id = ${p.projectId} and journey_id = ${j.id}`;
    // Members and their entries in SQL (the API would take minutes): every other member waits for the plan
    // the event names, the rest for another; plus as many non-members waiting for that plan.
    await sql`
      with u as (
        insert into users (project_id) select ${p.projectId} from generate_series(1, ${2 * members}) returning id
      ), n as (select id, row_number() over (order by id) as n from u), m as (
        insert into organization_members (project_id, organization_id, user_id)
        select ${p.projectId}, ${orgId}, id from n where n <= ${members} returning user_id
      )
      insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state,
        step_since, waiting_for, wait_event, wait_key)
      select ${p.projectId}, ${j.id}, ${entranceId}, n.id, gen_random_uuid(),
        jsonb_build_object('start', jsonb_build_object('plan', v.plan, 'member', n.n <= ${members})), 'w', 'waiting',
        now() - interval '1 minute', '{"kind": "event", "name": "Org Renewed"}', 'Org Renewed', n.id || '|plan=' || to_jsonb(v.plan)::text
      from n cross join lateral (select case when n.n % 2 = 0 or n.n > ${members} then 'pro' else 'free' end as plan) v`;
    const sent = await api("POST", p.client("/organizations/events"), {
      key: p.keys.client,
      body: [{ name: "Org Renewed", identifier: [{ external_id: "big-org" }], data: { plan: "pro" } }],
    });
    expect(sent.status).toBe(202);
    const expected = Math.floor(members / 2);
    await waitFor(
      async () =>
        (
          await sql`select count(*)::int as n from journey_entries where project_id = ${p.projectId} and journey_id = ${j.id}
            and state <> 'waiting'`
        )[0]!.n >= expected,
      60_000,
      "members released",
    );
    await stepsIdle();
    const byKind = await sql`
      select context->'start'->>'plan' as plan, (context->'start'->>'member')::boolean as member, state, count(*)::int as n
      from journey_entries where project_id = ${p.projectId} and journey_id = ${j.id}
      group by 1, 2, 3 order by 1, 2, 3`;
    expect(byKind.map((r) => [r.plan, r.member, r.state === "waiting" ? "waiting" : "released", r.n])).toEqual([
      ["free", true, "waiting", members - expected],
      ["pro", false, "waiting", members],
      ["pro", true, "released", expected],
    ]);
  });

  it("brings a pending edit's entries in line for an organization event page after page, before the edit's own batch", async () => {
    const members = 2 * MEMBER_PAGE + 1;
    const wait = (same_as: string) => [
      { key: "w", kind: "wait", event: { name: "Org Tiered", same_as }, next: "bye" },
      { key: "bye", kind: "exit" },
    ];
    const j = await journey(wait("plan"));
    await api("POST", p.client("/organizations"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "tiered-org" }] },
    });
    const [{ id: orgId }] = await sql`select organization_id as id from organization_identifiers
      where project_id = ${p.projectId} and external_id = 'tiered-org'`;
    const [{ id: entranceId }] =
      await sql`select id from journey_entrances where project_id = ${p.projectId} and journey_id = ${j.id}`;
    const enter = (user: string) => sql`
      insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state,
        step_since, waiting_for, wait_event, wait_key)
      values (${p.projectId}, ${j.id}, ${entranceId}, ${user}, gen_random_uuid(),
        '{"start": {"plan": "free", "tier": "gold"}}', 'w', 'waiting', now() - interval '1 minute',
        '{"kind": "event", "name": "Org Tiered"}', 'Org Tiered', ${`${user}|plan="free"`})
      returning id`;
    // A non-member entered first: held, it keeps the edit's batch (entries in id order) from everyone.
    const [{ id: outsider }] = await sql`insert into users (project_id) values (${p.projectId}) returning id`;
    const [{ id: heldEntry }] = await enter(outsider);
    // The members in SQL; only the last by id, on the event's last page of members, waits.
    const [{ id: last }] = await sql`
      with u as (insert into users (project_id) select ${p.projectId} from generate_series(1, ${members}) returning id),
      m as (insert into organization_members (project_id, organization_id, user_id)
        select ${p.projectId}, ${orgId}, id from u returning user_id)
      select max(user_id::text)::uuid as id from m`;
    await enter(last);
    const held = await holdEntry(heldEntry);
    try {
      const r = await api("PATCH", p.admin(`/journeys/${j.id}`), { key: p.keys.editor, body: { steps: wait("tier") } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const sent = await api("POST", p.client("/organizations/events"), {
        key: p.keys.client,
        body: [{ name: "Org Tiered", identifier: [{ external_id: "tiered-org" }], data: { tier: "gold" } }],
      });
      expect(sent.status).toBe(202);
      await entryOf(j.id, last, (e) => e.state === "exited", "the last member released before the edit's batch");
      expect((await entryOf(j.id, outsider, () => true)).wait_key).toBe(`${outsider}|plan="free"`);
    } finally {
      await held.release();
    }
  });
});
