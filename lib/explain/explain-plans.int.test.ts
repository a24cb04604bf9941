import { sql as dsql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { openPlansDatabase, pagesTouched, rowsRead } from "../../scripts/test/plans";
import { evaluateRule } from "../lists/evaluate-rule";
import { rule as ruleSchema } from "../lists/rules";
import { explainList } from "./explain-list";
import { explainJourney } from "./explain-journey";
import { TIMELINE_SOURCES } from "./timeline-sources";
import { systemContext } from "@/lib/access/context";

/**
 * Explain, trace and timeline read what the pipeline's decision reads: bounded ranges of the same
 * indexes, never a user's whole history. A user with 100,000 events and one with 1,000 must cost the same
 * pages, give or take B-tree leaf boundaries; a timeline page deep in the history must cost what the first
 * one does (keyset, no offset). The events lie where a new installation's, or an upgraded one's history,
 * do: in the first partition (events_before) beside an empty default one, with statistics (ANALYZE) and a
 * visibility map (VACUUM) as autovacuum keeps them. Two users only: the statistics then say a user has
 * half the project's events, the planner's worst case for "the first few of this user's events".
 */
let plans: Awaited<ReturnType<typeof openPlansDatabase>>;
let db: Db;
let projectId: string;
const SMALL = "00000000-0000-7000-8000-000000000001";
const BIG = "00000000-0000-7000-8000-000000000002";
/** Pages the 100,000-event user may cost beyond the 1,000-event one: index leaves and levels, not history. */
const MARGIN = 20;
/** Rows of each other timeline source for the big user: 20,000, five minutes apart (the events' span). */
const HISTORY = 20_000;
/**
 * Buffer accesses one timeline page of 51 rows may make in any source: index levels and leaves, and a few
 * heap visits per row (the events source filters the small user's rows out of a project-wide range). Reading
 * a source's history would be tens of thousands.
 */
const PAGE_PAGES = 250;
let listId: string;
let journeyId: string;

const rule = ruleSchema.parse({
  all: [
    { event: { name: "Purchased", at_least: 3, within_days: 30, where: [{ path: "amount", op: "gte", value: 10 }] } },
    { any: [{ property: { path: "data.plan", op: "eq", value: "pro" } }, { event: { name: "Renewed" } }] },
  ],
});

beforeAll(async () => {
  plans = await openPlansDatabase("relay_explain_plans", ["users", "events", "list_changes", "journey_entries"]);
  ({ db, projectId } = plans);
  const g = getDb();
  await g.execute(dsql`insert into users (project_id, id, data) values
    (${projectId}, ${SMALL}, '{"plan":"pro"}'), (${projectId}, ${BIG}, '{"plan":"pro"}')`);
  // Purchases a minute apart, newest now, alternating amounts (5, 15): each user's latest events match.
  for (const [user, n] of [
    [SMALL, 1_000],
    [BIG, 100_000],
  ] as const)
    await g.execute(dsql`
      insert into events (project_id, name, user_id, data, origin, occurred_at)
      select ${projectId}::uuid, case when i % 10 = 0 then 'Viewed' else 'Purchased' end, ${user}::uuid,
        jsonb_build_object('amount', 5 + (i % 2) * 10), 'client', now() - make_interval(mins => i)
      from generate_series(1, ${n}) i`);
  const [l] = await g.execute(dsql`insert into lists (project_id, name, kind, rules, event_names)
    values (${projectId}, 'plans', 'dynamic', ${JSON.stringify(rule)}::jsonb, '{Purchased,Renewed}') returning id`);
  listId = l!.id as string;
  const [j] = await g.execute(
    dsql`insert into journeys (project_id, name) values (${projectId}, 'plans') returning id`,
  );
  journeyId = j!.id as string;
  await g.execute(dsql`insert into journey_entrances (project_id, journey_id, kind, event_name, condition, data_key)
    values (${projectId}, ${journeyId}, 'event', 'Purchased', '[{"path":"amount","op":"gte","value":10}]', 'event')`);
  // Every other timeline source holds a history too, one row every five minutes: the big user's over the
  // same span as its events (a deep cursor skips thousands of rows in each), the small one's 200 rows.
  const [dest] = await g.execute(dsql`insert into destinations (project_id, name, url, events, secret_sealed)
    values (${projectId}, 'plans', 'https://hooks.example.com/x', '{*}', 'sealed') returning id`);
  const [group] = await g.execute(dsql`insert into subscription_groups (project_id, name, channel)
    values (${projectId}, 'plans', 'email') returning id`);
  const [template] = await g.execute(dsql`insert into message_templates (project_id, name, channel, transactional)
    values (${projectId}, 'plans', 'email', true) returning id`);
  const every = (i: string) => dsql.raw(`now() - make_interval(mins => ${i} * 5)`);
  for (const [user, n] of [
    [SMALL, 200],
    [BIG, HISTORY],
  ] as const) {
    await g.execute(dsql`
      insert into list_changes (project_id, list_id, user_id, change, cause, at)
      select ${projectId}::uuid, ${listId}::uuid, ${user}::uuid, case when i % 2 = 0 then 'added' else 'removed' end, 'event', ${every("i")}
      from generate_series(1, ${n}) i`);
    await g.execute(dsql`
      insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, entered_at, exited_at)
      select ${projectId}::uuid, ${journeyId}::uuid, gen_random_uuid(), ${user}::uuid, gen_random_uuid(), '{}', ${every("i")}, ${every("i")} + interval '1 minute'
      from generate_series(1, ${n}) i`);
    // One step of each entry's path (the journey_steps source), left half a minute after entering, appended
    // in time order as the walk appends them (in whatever order a plan read the entries, the rows an
    // explanation reads would lie scattered or together by chance).
    await g.execute(dsql`
      insert into journey_entry_steps (project_id, entry_id, user_id, seq, journey_id, step_key, kind, entered_at, left_at, outcome)
      select project_id, id, user_id, 1, journey_id, 'wait', 'delay', entered_at, entered_at + interval '30 seconds', 'delayed'
      from journey_entries where project_id = ${projectId} and user_id = ${user} order by entered_at`);
    await g.execute(dsql`
      insert into subscription_changes (project_id, user_id, group_id, channel, previous_state, state, source, created_at)
      select ${projectId}::uuid, ${user}::uuid, ${group!.id as string}::uuid, 'email', 'subscribed', 'unsubscribed', 'admin_api', ${every("i")}
      from generate_series(1, ${n}) i`);
    await g.execute(dsql`
      insert into destination_deliveries (project_id, destination_id, event_id, event_name, user_id, payload, state, created_at)
      select ${projectId}::uuid, ${dest!.id as string}::uuid, gen_random_uuid(), 'Purchased', ${user}::uuid, '{}', 'delivered', ${every("i")}
      from generate_series(1, ${n}) i`);
    await g.execute(dsql`
      insert into messages (project_id, template_id, user_id, channel, state, reason, journey_entry_id, journey_step_key, created_at)
      select ${projectId}::uuid, ${template!.id as string}::uuid, ${user}::uuid, 'email', 'skipped', 'frequency_cap',
        gen_random_uuid(), 'send', ${every("i")}
      from generate_series(1, ${n}) i`);
  }
  await g.execute(
    dsql`vacuum analyze events, list_changes, journey_entries, journey_entry_steps, subscription_changes, destination_deliveries, messages`,
  );
}, 180_000);
afterAll(() => plans.close());

/** `big` within MARGIN pages of `small`, naming each statement's pages when not. */
function expectSamePages(small: { total: number }, big: { total: number; statements: unknown[] }) {
  expect(big.total, JSON.stringify({ small, big }, null, 1)).toBeLessThanOrEqual(small.total + MARGIN);
}

it("the pipeline's rule decision touches as many pages for a user with 100,000 events as for one with 1,000", async () => {
  const pages = (user: string) =>
    plans.pagesRead((tx) => evaluateRule(systemContext(tx, projectId), { rule, userIds: [user] }));
  const small = await pages(SMALL);
  const big = await pages(BIG);
  expectSamePages(small, big);
  expect(big.total).toBeLessThan(50);
});

it("list and journey explain touch as many pages for a user with 100,000 events as for one with 1,000", async () => {
  const pages = (user: string) =>
    plans.pagesRead(async (tx) => {
      await explainList(systemContext(tx, projectId), { listId, userId: user });
      await explainJourney(systemContext(tx, projectId), { journeyId, userId: user });
    });
  const small = await pages(SMALL);
  const big = await pages(BIG);
  expectSamePages(small, big);
  // About 250 with every shown entry's last 100 path rows read (one index descent and a few heap pages
  // per entry, so a path of any length costs the same); reading the history instead would be thousands.
  expect(big.total).toBeLessThan(300);
});

it("list and journey explain read a few events for either user, not their history", async () => {
  const rows = async (user: string) =>
    rowsRead(db, ["events", "list_changes", "journey_entries"] as const, async (tx) => {
      await explainList(systemContext(tx, projectId), { listId, userId: user });
      await explainJourney(systemContext(tx, projectId), { journeyId, userId: user });
    });
  const small = await rows(SMALL);
  const big = await rows(BIG);
  // The samples and counts shown, plus the newest row of each partition a newest-first read merges.
  expect(small.events).toBeLessThan(120);
  expect(big.events).toBeLessThan(120);
});

it("a timeline page deep in a 100,000-event history costs what the first page does", async () => {
  const ctx = systemContext(db, projectId);
  const [deep] = await getDb().execute(dsql`
    select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id::text as id from events
    where project_id = ${projectId} and user_id = ${BIG} order by occurred_at desc, id desc offset 90000 limit 1`);
  const c = { at: deep!.at as string, id: deep!.id as string };
  for (const source of TIMELINE_SOURCES) {
    // Every source has a history reaching past the cursor: a page there is a full one.
    const rows = await db.execute(source.query(ctx, BIG, c, 51));
    expect(rows.length, source.name).toBe(51);
    const first = await pagesTouched(db, source.query(ctx, BIG, null, 51));
    const later = await pagesTouched(db, source.query(ctx, BIG, c, 51));
    expect(later, source.name).toBeLessThanOrEqual(first + 3);
    // And neither page reads the history: a source reading all of it costs the same at any depth.
    expect(first, source.name).toBeLessThan(PAGE_PAGES);
    expect(later, source.name).toBeLessThan(PAGE_PAGES);
  }
});
