import { sql as dsql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb, type Db } from "../../db/client";
import { events, lists } from "../../db/schema";
import { openPlansDatabase, rowsRead as rowsReadOf } from "../../scripts/test/plans";
import { upsertUsers } from "../users/upsert-user";
import { listIdentifiers } from "../identity/resolve";
import { loadEvents } from "../pipeline/run-step";
import { addMembers } from "../organizations/add-members";
import { upsertOrganizations } from "../organizations/upsert-organization";
import { evaluateRule } from "../lists/evaluate-rule";
import { applyMembership } from "../lists/apply-membership";
import { recomputeListsForEvents } from "../lists/recompute-lists";
import { systemContext } from "@/lib/access/context";
import { uuidv7s } from "./uuidv7";
import { loadSendFacts } from "../messages/send-facts";
import { createTemplate } from "../templates/create-template";
import { createTemplateBody } from "../templates/schemas";

/**
 * Reads by a list of ids must probe the key whatever the planner believes. With statistics taken while
 * the tables were empty (or before a project grew), `project_id = $p and id = any($ids)` on events was
 * planned through an index on (project_id, name): twenty events found by reading the project's history.
 * Same for a page of records' identifiers. One connection, past the five custom plans of a prepared
 * statement, so the generic plans are the ones measured.
 */
let plans: Awaited<ReturnType<typeof openPlansDatabase>>;
let db: Db;
let projectId: string;
const EVENTS = 4_000;
const USERS = 1_000;
const N = 20;
let eventIds: string[];
let userIds: string[];

beforeAll(async () => {
  plans = await openPlansDatabase("relay_probe_plans", [
    "events",
    "user_identifiers",
    "organization_members",
    "messages",
  ]);
  ({ db, projectId } = plans);
  eventIds = uuidv7s(EVENTS);
  for (let b = 0; b < EVENTS; b += 1_000) {
    await getDb()
      .insert(events)
      .values(eventIds.slice(b, b + 1_000).map((id, i) => ({ projectId, id, name: `e${i % 5}`, data: { i } })));
  }
  const ctx = systemContext(getDb(), projectId);
  userIds = [];
  for (let b = 0; b < USERS / 500; b++) {
    const made = await upsertUsers(
      ctx,
      Array.from({ length: 500 }, (_, i) => ({
        identifier: [
          { source: "default", external_id: `u-${b}-${i}` },
          { source: "crm", external_id: `c-${b}-${i}` },
        ],
      })),
    );
    userIds.push(...made.users.map((u) => u.id));
  }
  await upsertOrganizations(ctx, [{ identifier: [{ source: "default", external_id: "acme" }] }]);
  await addMembers(ctx, { memberships: memberships(0, USERS, "seed"), path: (i) => `[${i}].` });
}, 120_000);
afterAll(() => plans.close());

/** Rows of `table` the body read on the measuring connection. */
const rowsRead = async (table: string, body: Parameters<typeof rowsReadOf>[2]) =>
  (await rowsReadOf(db, [table], body))[table]!;

it("a pipeline step loads its batch's events, not the project's", async () => {
  for (let i = 0; i < 8; i++) await loadEvents(systemContext(db, projectId), { ids: eventIds.slice(i * 5, i * 5 + 5) });
  const ids = eventIds.slice(-N);
  let loaded: Awaited<ReturnType<typeof loadEvents>> = [];
  const read = await rowsRead("events", async (tx) => {
    loaded = await loadEvents(systemContext(tx, projectId), { ids });
  });
  expect(loaded.map((e) => e.id).sort()).toEqual([...ids].sort());
  expect(loaded[0]!.occurredAt).toBeInstanceOf(Date);
  expect(read).toBeLessThanOrEqual(N);
});

it("a page of records lists its records' identifiers, not the project's", async () => {
  for (let i = 0; i < 8; i++)
    await listIdentifiers(systemContext(db, projectId), { kind: "user", recordIds: userIds.slice(i * 5, i * 5 + 5) });
  const ids = userIds.slice(-N);
  let listed = new Map<string, unknown[]>();
  const read = await rowsRead("user_identifiers", async (tx) => {
    listed = await listIdentifiers(systemContext(tx, projectId), { kind: "user", recordIds: ids });
  });
  expect([...listed.keys()].sort()).toEqual([...ids].sort());
  expect([...listed.values()].every((l) => l.length === 2)).toBe(true);
  expect(read).toBeLessThanOrEqual(N * 2);
});

/** Memberships of acme for users from..to-1 (all seeded), with a tag in their data. */
function memberships(from: number, to: number, tag: string) {
  return Array.from({ length: to - from }, (_, i) => {
    const n = from + i;
    return {
      organization: { identifier: [{ source: "default", external_id: "acme" }] },
      user: { identifier: [{ source: "default", external_id: `u-${Math.floor(n / 500)}-${n % 500}` }] },
      data: { tag },
    };
  });
}

it("a batch of memberships locks, merges and reads its own memberships, not the organization's", async () => {
  for (let i = 0; i < 8; i++)
    await addMembers(systemContext(db, projectId), {
      memberships: memberships(i * 5, i * 5 + 5, `warm-${i}`),
      path: (j) => `[${j}].`,
    });
  let updated = 0;
  const read = await rowsRead("organization_members", async (tx) => {
    const r = await addMembers(systemContext(tx, projectId), {
      memberships: memberships(USERS - N, USERS, "measured"),
      path: (j) => `[${j}].`,
    });
    updated = r.memberships.filter((m) => m.data.tag === "measured").length;
  });
  expect(updated).toBe(N);
  // Per membership: the insert's conflict check, its lock, its merge and its read.
  expect(read).toBeLessThanOrEqual(N * 5);
});

it("a list's re-evaluation reads the users it names, and removes members by key", async () => {
  const ctx = systemContext(getDb(), projectId);
  const [list] = await getDb()
    .insert(lists)
    .values({ projectId, name: "everyone", kind: "dynamic", rules: {} })
    .returning();
  await getDb().execute(dsql`analyze list_members`);
  // A list far larger than the batch (so reading it whole is not the cheap plan), its statistics stale.
  await getDb().execute(dsql`with u as (insert into users (project_id, id) select ${projectId}::uuid, gen_random_uuid() from generate_series(1, 30000) returning id)
    insert into list_members (project_id, list_id, user_id) select ${projectId}::uuid, ${list!.id}::uuid, id from u`);
  await applyMembership(ctx, { list: list!, add: userIds, remove: [] });
  const rule = { property: { path: "data.missing", op: "not_exists" as const } };
  for (let i = 0; i < 8; i++)
    await evaluateRule(systemContext(db, projectId), { rule, userIds: userIds.slice(i * 5, i * 5 + 5) });
  const ids = userIds.slice(-N);
  let matched = new Set<string>();
  const usersRead = await rowsRead("users", async (tx) => {
    matched = await evaluateRule(systemContext(tx, projectId), { rule, userIds: ids });
  });
  expect([...matched].sort()).toEqual([...ids].sort());
  expect(usersRead).toBeLessThanOrEqual(N);

  for (let i = 0; i < 8; i++)
    await applyMembership(systemContext(db, projectId), { list: list!, add: [], remove: [userIds[i]!] });
  let removed: string[] = [];
  const membersRead = await rowsRead("list_members", async (tx) => {
    removed = (await applyMembership(systemContext(tx, projectId), { list: list!, add: [], remove: ids })).removed;
  });
  expect(removed.sort()).toEqual([...ids].sort());
  expect(membersRead).toBeLessThanOrEqual(N * 2);
});

it("an organization's event re-evaluates its own members, found without reading the project's memberships", async () => {
  const ctx = systemContext(getDb(), projectId);
  const [tiny] = (await upsertOrganizations(ctx, [{ identifier: [{ source: "default", external_id: "tiny" }] }]))
    .organizations;
  await addMembers(ctx, {
    memberships: memberships(0, 2, "tiny").map((m) => ({
      ...m,
      organization: { identifier: [{ source: "default", external_id: "tiny" }] },
    })),
    path: (i) => `[${i}].`,
  });
  const rules = { event: { name: "org.evt", scope: "organization" as const, at_least: 1 } };
  await getDb()
    .insert(lists)
    .values({ projectId, name: "org event", kind: "dynamic", rules, eventNames: ["org.evt"] });
  const event = (n: number) => ({
    projectId,
    id: crypto.randomUUID(),
    name: "org.evt",
    userId: null,
    organizationId: tiny!.id,
    data: { n },
    origin: "client" as const,
    clientId: null,
    occurredAt: new Date(),
    receivedAt: new Date(),
  });
  for (let i = 0; i < 8; i++) await recomputeListsForEvents(systemContext(db, projectId), [event(i)]);
  const read = await rowsRead("organization_members", async (tx) => {
    await recomputeListsForEvents(systemContext(tx, projectId), [event(99)]);
  });
  // The two members, and the rule's membership check for each of them.
  expect(read).toBeLessThanOrEqual(8);
});

it("a sender's batch of send facts reads its messages, not the table", async () => {
  const ctx = systemContext(getDb(), projectId);
  const template = await createTemplate(
    ctx,
    createTemplateBody.parse({ name: "probe", channel: "email", transactional: true, subject: "s", text: "t" }),
  );
  // Far more messages than a batch, inserted after messages was analyzed empty (as a sender meets them).
  const ids = uuidv7s(4_000);
  await getDb().execute(dsql`insert into messages (project_id, id, template_id, user_id, channel)
    select ${projectId}::uuid, i.id, ${template.id}::uuid, (${`{${userIds.join(",")}}`}::uuid[])[1 + i.n % ${USERS}], 'email'
    from unnest(${`{${ids.join(",")}}`}::uuid[]) with ordinality as i(id, n)`);
  const keys = (from: number, n: number) => ids.slice(from, from + n).map((id) => ({ projectId, id }));
  for (let i = 0; i < 8; i++) await loadSendFacts(systemContext(db, projectId), { keys: keys(i * 5, 5) });
  let loaded = 0;
  const read = await rowsRead("messages", async (tx) => {
    loaded = (await loadSendFacts(systemContext(tx, projectId), { keys: keys(4_000 - N, N) })).length;
  });
  expect(loaded).toBe(N);
  expect(read).toBeLessThanOrEqual(N);
});
