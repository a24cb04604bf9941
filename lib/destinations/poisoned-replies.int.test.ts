import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, ownDatabaseForFile, sql, type TestProject } from "../../scripts/test/helpers";
import { startReceiver } from "../../scripts/test/webhook-receiver";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";
import type { Outcome } from "./record-attempts";
import { recordOutcomes } from "./record-outcomes";

/*
 * A receiver's reply is stored whatever bytes it holds: a loopback receiver answers 200 with NUL bytes and
 * invalid UTF-8, and every message to it is recorded once as delivered, never sent again, while a
 * well-behaved destination beside it keeps receiving. The real server, a real worker.
 */
ownDatabaseForFile("relay_poisoned");

let p: TestProject;
let worker: TestWorker;
let good: Awaited<ReturnType<typeof startReceiver>>;
let poison: Server;
let poisonUrl: string;
/** webhook-id -> times the poisoning receiver got it. */
const poisoned = new Map<string, number>();
/** 200 with a NUL, bytes that are not UTF-8 (0xff, a cut sequence) and an encoded lone surrogate. */
const REPLY = Buffer.concat([Buffer.from("ok"), Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x00])]);

const track = (name: string, n: number, from = 0, t: TestProject = p) =>
  api("POST", t.client("/users/events"), {
    key: t.keys.client,
    body: Array.from({ length: n }, (_, i) => ({ name, identifier: [{ external_id: `u${from + i}` }], data: {} })),
  });
const states = async (destinationId: string): Promise<Record<string, number>> =>
  Object.fromEntries(
    (
      await sql`select state, count(*)::int as n from destination_deliveries
        where project_id = ${p.projectId} and destination_id = ${destinationId} group by state`
    ).map((r) => [r.state, r.n]),
  );

beforeAll(async () => {
  p = await createTestProject("poisoned-replies");
  good = await startReceiver();
  poison = createServer((req, res) => {
    const id = String(req.headers["webhook-id"]);
    poisoned.set(id, (poisoned.get(id) ?? 0) + 1);
    req.resume().on("end", () => res.writeHead(200, { "content-type": "application/octet-stream" }).end(REPLY));
  });
  await new Promise<void>((r) => poison.listen(0, "127.0.0.1", r));
  poisonUrl = `http://127.0.0.1:${(poison.address() as AddressInfo).port}/poison`;
  worker = await startWorker(process.env.DATABASE_URL!, {
    DESTINATIONS_ALLOW_HOSTS: "127.0.0.1,localhost",
    DESTINATION_POLL_MS: "100",
  });
});

/** Receivers that take every request and never answer (each its own origin, so its own connections). */
const hanging: Server[] = [];
/** When the first request held by a hanging receiver ended (the sender's 10 s timeout gave it up). */
let firstGivenUp = Number.POSITIVE_INFINITY;
async function startHanging() {
  let open = 0;
  const server = createServer((req) => {
    open++;
    req.socket.once("close", () => {
      open--;
      firstGivenUp = Math.min(firstGivenUp, Date.now());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  hanging.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`, open: () => open };
}

afterAll(async () => {
  await worker?.stop("SIGKILL");
  for (const h of hanging) {
    h.closeAllConnections();
    h.close();
  }
  await good?.stop();
  poison?.closeAllConnections();
  await new Promise((r) => poison?.close(r));
});

describe("a reply with NUL bytes and invalid UTF-8", () => {
  it("is recorded once as delivered, never sent twice, and does not hold up a well-behaved destination", async () => {
    const bad = await api("POST", p.admin("/destinations"), {
      key: p.keys.editor,
      body: { name: "poison", url: poisonUrl, events: ["Poison"] },
    });
    expect(bad.status).toBe(201);
    const fine = await api("POST", p.admin("/destinations"), {
      key: p.keys.editor,
      body: { name: "fine", url: good.url("/fine"), events: ["Poison"] },
    });
    expect(fine.status).toBe(201);
    good.setSecrets([fine.body.secret]);

    expect((await track("Poison", 20)).status).toBe(202);
    await waitFor(async () => poisoned.size >= 20 && good.received.length >= 20, 30_000, "both receivers reached");
    await waitFor(async () => (await states(bad.body.id)).delivered === 20, 15_000, "the poisoned outcomes recorded");

    // Every claim lease of the poisoned destination passes (moved in SQL): all 20 are delivered, so a
    // lapsed lease makes none of them due again and nothing goes out twice.
    const moved = await sql`update destination_deliveries set next_attempt_at = now() - interval '1 second'
      where project_id = ${p.projectId} and destination_id = ${bad.body.id} returning state`;
    expect(moved.map((r) => r.state)).toEqual(Array(20).fill("delivered"));
    expect((await track("Poison", 5, 100)).status).toBe(202);
    await waitFor(async () => good.received.length >= 25, 30_000, "the well-behaved destination still receiving");
    await waitFor(async () => (await states(bad.body.id)).delivered === 25, 15_000, "the later outcomes recorded");
    expect([...poisoned.values()].every((n) => n === 1)).toBe(true);
    expect(poisoned.size).toBe(25);
    const [attempts] = await sql`select count(*)::int as n, count(distinct delivery_id)::int as d
      from destination_attempts where project_id = ${p.projectId} and destination_id = ${bad.body.id}`;
    expect(attempts).toEqual({ n: 25, d: 25 });

    // What the receiver said is kept, its NULs and bad bytes replaced.
    const log = await api("GET", p.admin(`/destinations/${bad.body.id}/deliveries`), { key: p.keys.support });
    expect(log.status).toBe(200);
    const response: string = log.body.data[0].attempts[0].response;
    expect(response.startsWith("ok\uFFFD")).toBe(true);
    expect(response).not.toContain("\0");
  });

  it("answers a test send to that receiver with its outcome, not a 500", async () => {
    const made = await api("POST", p.admin("/destinations"), {
      key: p.keys.editor,
      body: { name: "poison-test", url: poisonUrl, events: ["Nothing"] },
    });
    const res = await api("POST", p.admin(`/destinations/${made.body.id}/test`), { key: p.keys.editor });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("delivered");
  });
});

describe("a batch of outcomes the database refuses", () => {
  it("sets aside only the refused row; the others (another project's too) are written", async () => {
    const q = await createTestProject("poisoned-replies-other");
    const mk = async (t: TestProject) => {
      const d = await api("POST", t.admin("/destinations"), {
        key: t.keys.editor,
        body: { name: "quiet", url: "http://127.0.0.1:9/quiet", events: ["Nothing"], enabled: false },
      });
      const rows = await sql`insert into destination_deliveries (project_id, destination_id, event_name, payload, state)
        select ${t.projectId}::uuid, ${d.body.id}::uuid, 'Seeded', '{}'::jsonb, 'pending' from generate_series(1, 3)
        returning id`;
      return rows.map(
        (r): Outcome => ({
          projectId: t.projectId,
          deliveryId: r.id,
          destinationId: d.body.id,
          at: new Date(),
          status: 200,
          latencyMs: 5,
          response: "fine",
          error: null,
          ok: true,
          nextAttemptAt: null,
        }),
      );
    };
    const mine = await mk(p);
    const theirs = await mk(q);
    // A status no smallint/int column holds: refused for its content, whatever the text.
    const refused = { ...mine[1]!, status: 2 ** 40 };
    const { getDb } = await import("../../db/client");
    const left = await recordOutcomes(
      { db: getDb() },
      { outcomes: [mine[0]!, refused, mine[2]!, ...theirs], disableAfterMs: 3_600_000 },
    );
    expect(left).toEqual([]);
    const ids = [...mine, ...theirs].map((o) => o.deliveryId);
    const rows = await sql`select id, state from destination_deliveries where id = any(${ids}::uuid[])`;
    const state = new Map(rows.map((r) => [r.id, r.state]));
    expect(state.get(mine[1]!.deliveryId)).toBe("pending");
    for (const o of [mine[0]!, mine[2]!, ...theirs]) expect(state.get(o.deliveryId)).toBe("delivered");
  });
});

describe("fairness", () => {
  /** `n` messages due now for destination `d` of project `t`, queued as the pipeline would (its delay is not under test). */
  const queue = async (t: TestProject, d: string, n: number) => {
    await sql`insert into destination_deliveries (project_id, destination_id, event_name, next_attempt_at, payload)
      select ${t.projectId}::uuid, ${d}::uuid, 'Queued', now(),
        jsonb_build_object('type', 'Queued', 'timestamp', now(), 'data', jsonb_build_object('i', i))
      from generate_series(1, ${n}) i`;
    await sql`select pg_notify('relay_destinations', '')`;
  };

  it("sixteen receivers that never answer hold up no fast one, in their project or another", async () => {
    const q = await createTestProject("poisoned-replies-fair");
    const slow = await Promise.all(Array.from({ length: 16 }, () => startHanging()));
    const slowIds: string[] = [];
    for (const [i, h] of slow.entries()) {
      const made = await api("POST", p.admin("/destinations"), {
        key: p.keys.editor,
        body: { name: `slow-${i}`, url: h.url, events: ["Slow"] },
      });
      expect(made.status).toBe(201);
      slowIds.push(made.body.id);
    }
    const arrived = new Map<string, number>();
    const fast = await startReceiver();
    fast.answerWith((r) => {
      arrived.set(r.webhookId, Date.now());
      return 200;
    });
    const fastIds = new Map<TestProject, string>();
    const secrets: string[] = [];
    for (const t of [p, q]) {
      const made = await api("POST", t.admin("/destinations"), {
        key: t.keys.editor,
        body: { name: "fast", url: fast.url(`/fast-${t.projectId}`), events: ["Fast"] },
      });
      expect(made.status).toBe(201);
      fastIds.set(t, made.body.id);
      secrets.push(made.body.secret);
    }
    fast.setSecrets(secrets);
    try {
      // Twenty messages for each slow receiver: sixteen of them held open on its connections, the rest queued.
      for (const d of slowIds) await queue(p, d, 20);
      await waitFor(async () => slow.every((h) => h.open() >= 16), 30_000, "every slow receiver holding requests");
      for (const [t, d] of fastIds) await queue(t, d, 200);
      await waitFor(async () => arrived.size >= 400, 60_000, "400 fast messages");
      // All went out while the slow receivers still held every request: none needed a slot that a slow
      // attempt gave up (after its 10 s timeout).
      expect(Math.max(...arrived.values())).toBeLessThan(firstGivenUp);
      expect(slow.every((h) => h.open() >= 16)).toBe(true);
    } finally {
      await fast.stop();
    }
  }, 120_000);
});
