import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createTestDatabase } from "../../scripts/test/database";
import { closeDatabase, getDb } from "../../db/client";
import { createProjectWithOwner } from "../projects/create-project";
import { stopBoss } from "../queue/boss";
import { inRetryingTransaction } from "../db/retry";
import { errorToResponse } from "../http/problem";
import { loadOrganizationViews } from "../organizations/view";
import { organizationChange, upsertOrganization } from "../organizations/upsert-organization";
import type { OrganizationInput } from "../organizations/schemas";
import type { UserInput } from "../users/schemas";
import { upsertUser, userChange } from "../users/upsert-user";
import { loadUserViews } from "../users/view";
import { upsertRecords } from "./upsert-records";
import { systemContext } from "@/lib/access/context";

/**
 * The one-call upsert (relay_upsert_user / relay_upsert_organization, lib/identity/upsert-one.ts) against the set-based path it
 * replaced for single upserts: the same script of writes applied to two projects, one each way, must give
 * the same answers, errors, events, intake rows and anniversary assignments. A database of its own with no
 * worker: intake rows stay until compared (a drain would take them at its own pace, one project first).
 */
type TestProject = { projectId: string };
let one: TestProject;
let set: TestProject;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
beforeAll(async () => {
  database = await createTestDatabase("relay_upsert_one");
  await closeDatabase();
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const make = async (name: string) => ({
    projectId: (
      await createProjectWithOwner(getDb(), {
        orgName: name,
        projectName: name,
        ownerEmail: `${name}-${crypto.randomUUID()}@example.com`,
      })
    ).project.id,
  });
  [one, set] = await Promise.all([make("upsert-one"), make("upsert-set")]);
}, 60_000);
afterAll(async () => {
  await stopBoss(2_000);
  await sql.end();
  await closeDatabase();
  await database.drop();
});

type Op = { kind: "user"; input: UserInput } | { kind: "organization"; input: OrganizationInput };

async function viaFunction(projectId: string, op: Op) {
  if (op.kind === "user") {
    const r = await upsertUser(systemContext(getDb(), projectId), op.input);
    return { view: r.user, created: r.created };
  }
  const r = await upsertOrganization(systemContext(getDb(), projectId), op.input);
  return { view: r.organization, created: r.created };
}

/** The previous single upsert: upsertRecords for one item, then the view, in a retrying transaction. */
async function viaSetPath(projectId: string, op: Op) {
  return inRetryingTransaction(getDb(), async (tx) => {
    const change = op.kind === "user" ? userChange(op.input) : organizationChange(op.input);
    const r = await upsertRecords(systemContext(tx, projectId), op.kind, [change], { conflicts: "reject" });
    const [view] =
      op.kind === "user"
        ? await loadUserViews(systemContext(tx, projectId), r.ids)
        : await loadOrganizationViews(systemContext(tx, projectId), r.ids);
    return { view: view!, created: r.created[0]! };
  });
}

/** Ids become labels in order of appearance, timestamps a flag, so two projects' outcomes compare. */
function normalize(value: unknown, labels: Map<string, string>): unknown {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (typeof value === "string" && uuid.test(value)) {
    if (!labels.has(value)) labels.set(value, `#${labels.size}`);
    return labels.get(value);
  }
  if (Array.isArray(value)) return value.map((v) => normalize(v, labels));
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const o = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === "created_at" || k === "updated_at") continue;
      out[k] = normalize(v, labels);
    }
    if (typeof o.created_at === "string" && typeof o.updated_at === "string")
      out.touched = o.updated_at !== o.created_at;
    return out;
  }
  return value;
}

async function outcome(projectId: string, run: () => Promise<unknown>, labels: Map<string, string>) {
  try {
    return normalize({ ok: await run() }, labels);
  } catch (err) {
    const res = errorToResponse(err);
    return normalize({ status: res.status, body: await res.json() }, labels);
  }
}

async function stored(projectId: string, labels: Map<string, string>) {
  const events =
    await sql`select name, user_id, organization_id, data, origin from events where project_id = ${projectId} order by id`;
  const intake =
    await sql`select kind, name, data, recorded from event_intake where project_id = ${projectId} order by id`;
  const assignments = await sql`
    select a.user_id, a.organization_id, a.state, a.interval, a.cycle, a.occurrence_at - a.anchor as span,
      (select count(*)::int from schedule_firings f where f.project_id = a.project_id and f.assignment_id = a.id and f.state = 'pending') as firings
    from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
    where a.project_id = ${projectId} and s.name = 'anniversary' order by a.id`;
  return normalize({ events: [...events], intake: [...intake], assignments: [...assignments] }, labels);
}

const big = (n: number) => "x".repeat(n);
const script: Op[] = [
  {
    kind: "user",
    input: {
      identifier: [
        { source: "default", external_id: "a" },
        { source: "crm", external_id: "a-crm", metadata: { tier: 1 } },
      ],
      email: "a@example.com",
      timezone: "Europe/Paris",
      data: { plan: "free", seats: 2 },
    },
  },
  { kind: "user", input: { identifier: [{ source: "default", external_id: "a" }], data: { plan: "free", seats: 2 } } },
  {
    kind: "user",
    input: {
      identifier: [{ source: "crm", external_id: "a-crm" }],
      data: { plan: "pro", nested: { x: 1 } },
      email: null,
      locale: "fr",
    },
  },
  {
    kind: "user",
    input: {
      identifier: [
        { source: "crm", external_id: "a-crm", metadata: { tier: 2, since: 2020 } },
        { source: "app", external_id: "a-app" },
      ],
    },
  },
  { kind: "user", input: { identifier: [{ source: "crm", external_id: "a-crm", metadata: { tier: 3 } }] } },
  { kind: "user", input: { identifier: [{ source: "default", external_id: "b" }], phone: "+14155550100" } },
  {
    kind: "user",
    input: {
      identifier: [
        { source: "default", external_id: "a" },
        { source: "default", external_id: "b" },
      ],
      data: { lost: true },
    },
  },
  {
    kind: "user",
    input: {
      identifier: [
        { source: "default", external_id: "b" },
        { source: "default", external_id: "fresh-with-conflict" },
        { source: "app", external_id: "a-app" },
      ],
    },
  },
  { kind: "user", input: { identifier: [{ source: "default", external_id: "b" }], data: { blob: big(200_000) } } },
  { kind: "user", input: { identifier: [{ source: "default", external_id: "b" }], data: { blob2: big(100_000) } } },
  { kind: "user", input: { identifier: [{ source: "default", external_id: "c" }], data: { blob: big(300_000) } } },
  {
    kind: "user",
    input: {
      identifier: [0, 1, 2, 3, 4].map((n) => ({
        source: "meta",
        external_id: `m${n}`,
        metadata: { blob: big(60_000) },
      })),
    },
  },
  {
    kind: "user",
    input: {
      identifier: [0, 1, 2].map((n) => ({ source: "meta", external_id: `m${n}`, metadata: { blob: big(60_000) } })),
    },
  },
  {
    kind: "user",
    input: { identifier: [{ source: "default", external_id: "b" }], timezone: null, email: "b@example.com", data: {} },
  },
  {
    kind: "organization",
    input: { identifier: [{ source: "default", external_id: "o" }], name: "Acme", data: { size: 10 } },
  },
  { kind: "organization", input: { identifier: [{ source: "default", external_id: "o" }], name: "Acme" } },
  {
    kind: "organization",
    input: {
      identifier: [
        { source: "default", external_id: "o" },
        { source: "crm", external_id: "o-crm" },
      ],
      name: null,
      data: { size: 11, region: "eu" },
    },
  },
  { kind: "organization", input: { identifier: [{ source: "default", external_id: "p" }] } },
  {
    kind: "organization",
    input: {
      identifier: [
        { source: "crm", external_id: "o-crm" },
        { source: "default", external_id: "p" },
      ],
      name: "x",
    },
  },
];

describe("the one-call upsert: the same rules as the set-based path", () => {
  it("gives the same answers, errors, events, intake rows and anniversary assignments for the same writes", async () => {
    const a = new Map<string, string>();
    const b = new Map<string, string>();
    const statuses = new Set<unknown>();
    for (const [i, op] of script.entries()) {
      const got = await outcome(one.projectId, () => viaFunction(one.projectId, op), a);
      const want = await outcome(set.projectId, () => viaSetPath(set.projectId, op), b);
      expect({ step: i, ...(got as object) }).toEqual({ step: i, ...(want as object) });
      statuses.add((want as { status?: number }).status);
    }
    // The script covers what it means to: creations, updates, a 409 and 422s.
    expect([...statuses].sort()).toEqual([409, 422, undefined]);
    expect(await stored(one.projectId, a)).toEqual(await stored(set.projectId, b));
    const [counts] =
      await sql`select count(*)::int as n from events where project_id = ${one.projectId} and name in ('user.created', 'user.updated', 'organization.created', 'organization.updated')`;
    expect(counts!.n).toBeGreaterThan(8);
  });

  it("exact response bodies: the one-call view equals a fresh read of the record", async () => {
    const r = await upsertUser(systemContext(getDb(), one.projectId), {
      identifier: [
        { source: "default", external_id: "view-1" },
        { source: "z", external_id: "v", metadata: { k: [1, { a: null }] } },
      ],
      email: "v@example.com",
      data: { b: 1, a: { c: "é" }, "": 0 },
    });
    const [fresh] = await loadUserViews(systemContext(getDb(), one.projectId), [r.user.id]);
    expect(JSON.stringify(r.user)).toBe(JSON.stringify(fresh));
    const o = await upsertOrganization(systemContext(getDb(), one.projectId), {
      identifier: [{ source: "default", external_id: "view-o" }],
      name: "N",
      data: { z: 1, a: 2 },
    });
    const [freshOrg] = await loadOrganizationViews(systemContext(getDb(), one.projectId), [o.organization.id]);
    expect(JSON.stringify(o.organization)).toBe(JSON.stringify(freshOrg));
  });

  it("20 concurrent upserts of one new identifier create one user, one user.created and one anniversary", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        upsertUser(systemContext(getDb(), one.projectId), {
          identifier: [{ source: "default", external_id: "race-1" }],
          data: { [`k${i}`]: i },
        }),
      ),
    );
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const id = results[0]!.user.id;
    const [row] = await sql`select data from users where project_id = ${one.projectId} and id = ${id}`;
    expect(Object.keys(row!.data as object)).toHaveLength(20);
    const created =
      await sql`select 1 from events where project_id = ${one.projectId} and name = 'user.created' and user_id = ${id}`;
    expect(created).toHaveLength(1);
    const assigned =
      await sql`select 1 from schedule_assignments where project_id = ${one.projectId} and user_id = ${id}`;
    expect(assigned).toHaveLength(1);
  });
});

describe("the one-call upsert: one round trip", () => {
  let client: postgres.Sql;
  let statements: string[] = [];
  beforeAll(() => {
    // The drain's wake-up (lib/pipeline/wake-intake.ts) follows the call on its own, out of band.
    client = postgres(database.url, {
      max: 1,
      onnotice: () => {},
      fetch_types: false,
      debug: (_c, q) => void (/pg_notify/.test(q) || statements.push(q)),
    });
  });
  afterAll(() => client.end());

  it("sends one statement for a creation, an update and a conflict (no BEGIN/COMMIT)", async () => {
    const db = drizzle(client, { schema, casing: "snake_case" });
    const writes: UserInput[] = [
      { identifier: [{ source: "default", external_id: "rt-1" }], email: "rt@example.com", data: { n: 1 } },
      {
        identifier: [
          { source: "default", external_id: "rt-1" },
          { source: "crm", external_id: "rt-1" },
        ],
        data: { n: 2 },
      },
    ];
    for (const input of writes) {
      statements = [];
      await upsertUser(systemContext(db, one.projectId), input);
      expect(statements).toHaveLength(1);
    }
    await upsertUser(systemContext(db, one.projectId), { identifier: [{ source: "default", external_id: "rt-2" }] });
    statements = [];
    await expect(
      upsertUser(systemContext(db, one.projectId), {
        identifier: [
          { source: "default", external_id: "rt-1" },
          { source: "default", external_id: "rt-2" },
        ],
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect(statements).toHaveLength(1);
  });
});
