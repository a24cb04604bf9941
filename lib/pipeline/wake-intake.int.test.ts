import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import type { Db } from "../../db/client";
import { systemContext, type ProjectContext } from "../access/context";
import { acceptEvents } from "../events/accept-events";
import { recordFeedback } from "../feedback/record-feedback";
import { INTAKE_CHANNEL } from "../queue/jobs";
import { upsertUser } from "../users/upsert-user";
import { createTestDatabase } from "../../scripts/test/database";
import { projectIn } from "../../scripts/test/in-process";
import { waitFor } from "../../scripts/test/worker";

/*
 * Writes that leave rows in the intake wake the drain (lib/pipeline/wake-intake.ts) after their commit.
 * A database of its own, so the only notifications on the channel are this file's.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let listener: postgres.Sql;
let db: Db;
let ctx: ProjectContext<Db>;
let heard = 0;
const heardAt: number[] = [];

beforeAll(async () => {
  database = await createTestDatabase("relay_wake_intake");
  sql = postgres(database.url, { max: 4, onnotice: () => {} });
  listener = postgres(database.url, { max: 1, onnotice: () => {} });
  await listener.listen(INTAKE_CHANNEL, (payload) => {
    if (payload === SENTINEL) {
      for (const w of sentinelWaiters.splice(0)) w();
      return;
    }
    heard++;
    heardAt.push(Date.now());
  });
  ({ db, ctx } = await projectIn(sql));
}, 60_000);

afterAll(async () => {
  await listener.end();
  await sql.end();
  await database.drop();
});

const SENTINEL = "test-sentinel";
const sentinelWaiters: (() => void)[] = [];

/**
 * Resolves once every NOTIFY sent before it has been heard: notifications reach a listener in commit
 * order, so hearing a sentinel sent now means the earlier ones arrived.
 */
async function heardEverythingSent(): Promise<void> {
  const heardIt = new Promise<void>((r) => sentinelWaiters.push(r));
  await sql`select pg_notify(${INTAKE_CHANNEL}, ${SENTINEL})`;
  await heardIt;
}

/** Until this process has no wake-up in flight or queued (lib/pipeline/wake-intake.ts keeps it on globalThis). */
async function noWakeInFlight(): Promise<void> {
  const state = (globalThis as Record<symbol, { inFlight: boolean } | undefined>)[Symbol.for("relay.wakeIntake")];
  await waitFor(async () => !state?.inFlight, 10_000, "no wake-up in flight");
}

/** Notifications heard while `fn` runs and after it, until its out-of-band wake-up (if any) was surely heard. */
async function heardDuring(fn: () => Promise<unknown>): Promise<number> {
  await noWakeInFlight();
  await heardEverythingSent();
  heard = 0;
  await fn();
  await noWakeInFlight();
  await heardEverythingSent();
  return heard;
}

describe("waking the intake drain", () => {
  const user = { identifier: [{ source: "default", external_id: "wake-1" }], data: { n: 1 } };

  it("once after a single upsert that recorded an event, never after one that changed nothing", async () => {
    expect(await heardDuring(() => upsertUser(ctx, user))).toBe(1);
    expect(await heardDuring(() => upsertUser(ctx, { ...user, data: { n: 2 } }))).toBe(1);
    expect(await heardDuring(() => upsertUser(ctx, { ...user, data: { n: 2 } }))).toBe(0);
  });

  it("at most once per write, and at least once, for many concurrent upserts", async () => {
    const n = await heardDuring(() =>
      Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          upsertUser(ctx, { identifier: [{ source: "default", external_id: `wake-many-${i}` }] }),
        ),
      ),
    );
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(30);
  });

  it("spaced under a steady stream of writes (INTAKE_WAKE_SPACING_MS, 20 ms), and once more after the last", async () => {
    let last = 0;
    let writes = 0;
    let started = 0;
    const n = await heardDuring(async () => {
      // Four writers, one upsert after another each, for a second: back to back, without the spacing,
      // the wake-ups came one per round trip.
      started = Date.now();
      await Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          for (let i = 0; Date.now() - started < 1_000; i++) {
            await upsertUser(ctx, { identifier: [{ source: "default", external_id: `wake-stream-${w}-${i}` }] });
            writes++;
            last = Date.now();
          }
        }),
      );
    });
    const spanMs = last - started;
    expect(writes).toBeGreaterThan(n);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(Math.ceil(spanMs / 20) + 2);
    // The write that came last is covered: a wake-up is heard after it completed.
    expect(Math.max(...heardAt)).toBeGreaterThanOrEqual(last);
  });

  it("inside a caller's transaction: at its commit, not before", async () => {
    let before = -1;
    const n = await heardDuring(() =>
      db.transaction(async (tx) => {
        await upsertUser(systemContext(tx, ctx.projectId), { ...user, data: { n: 3 } });
        // Everything committed so far has been heard, and this transaction's NOTIFY is not among it.
        await heardEverythingSent();
        before = heard;
      }),
    );
    expect(before).toBe(0);
    expect(n).toBe(1);
  });

  it("after accepted events, with and without client ids, and not for events all seen before", async () => {
    expect(
      await heardDuring(() =>
        acceptEvents(ctx, {
          kind: "user",
          events: [{ name: "A", identifier: [{ source: "default", external_id: "wake-1" }] }],
        }),
      ),
    ).toBe(1);
    const withId = [{ name: "B", id: "wake-client-1", identifier: [{ source: "default", external_id: "wake-1" }] }];
    expect(await heardDuring(() => acceptEvents(ctx, { kind: "user", events: withId }))).toBe(1);
    expect(await heardDuring(() => acceptEvents(ctx, { kind: "user", events: withId }))).toBe(0);
  });

  it("after delivery reports, coalesced as other writers' (never a NOTIFY in each report's transaction)", async () => {
    const [t] = await sql<{ id: string }[]>`
      insert into message_templates (project_id, name, channel) values (${ctx.projectId}, 'wake', 'email') returning id`;
    const sent = await sql<{ id: string }[]>`
      with u as (insert into users (project_id, email)
        select ${ctx.projectId}, 'wake-' || g || '@example.com' from generate_series(1, 2000) g returning id, email)
      insert into messages (project_id, template_id, user_id, channel, state, recipient, attempts, finished_at)
      select ${ctx.projectId}, ${t!.id}, u.id, 'email', 'sent', u.email, 1, now() from u returning id`;
    let next = 0;
    let posts = 0;
    let started = 0;
    const n = await heardDuring(async () => {
      // Eight services posting one report after another, for half a second: each post's own NOTIFY was
      // heard once per post, and made concurrent posts commit one at a time.
      started = Date.now();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (Date.now() - started < 500 && next < sent.length) {
            const id = sent[next++]!.id;
            const report = { messageId: id, kind: "delivered" as const, source: "smtp" as const, dedupeKey: `d-${id}` };
            expect(await recordFeedback(ctx, { reports: [report] })).toEqual(["recorded"]);
            posts++;
          }
        }),
      );
    });
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 20) + 2);
    // Fewer wake-ups than posts: a NOTIFY in each post's transaction was heard once per post. (Not a fixed
    // multiple: on a loaded machine a post takes longer than the spacing, and fewer of them coalesce.)
    expect(n).toBeLessThan(posts);
  });
});
