import { describe, expect, it } from "vitest";
import { api } from "../../scripts/test/helpers";
import { startReceiver } from "../../scripts/test/webhook-receiver";
import { waitFor } from "../../scripts/test/worker";
import {
  at,
  create,
  deliveries,
  destinationsForFile,
  p,
  replaceWorker,
  rx,
  track,
} from "../../test/fixtures/destinations";

/*
 * What happens when a receiver fails: retries under one webhook-id (and the resend on a closed kept-alive
 * connection), a receiver away, 410 Gone turning a destination off and turning it on again, the attempt
 * timeout, and a worker SIGKILLed mid-delivery. The real server, a real worker, a verifying receiver.
 */
destinationsForFile("relay_destinations_retries");

describe("retries and failures", () => {
  it("retries a failing receiver with one webhook-id and logs every attempt, resending once on a closed kept-alive connection", async () => {
    // A receiver of its own (so a pool of its own in the worker) that drops every kept-alive connection as
    // the next request arrives on it: each retry's first send dies before any answer, and the promised
    // resend on a new connection, within the same attempt, must hide it from the log.
    const own = await startReceiver(0, { closeKeptAlive: true });
    try {
      const made = await api("POST", p.admin("/destinations"), {
        key: p.keys.editor,
        body: { name: "flaky", url: own.url("/flaky"), events: ["Flaky"] },
      });
      const d = made.body;
      own.setSecrets([d.secret]);
      let calls = 0;
      own.answerWith(() => (++calls <= 2 ? 500 : 200));
      await track([{ name: "Flaky", user: "carl" }]);
      const log = await waitFor(async () => {
        const b = await deliveries(d.id);
        return b.data[0]?.state === "delivered" ? b : null;
      });
      const ids = new Set(own.received.map((r) => r.webhookId));
      expect(ids.size).toBe(1);
      expect(log.data[0].webhook_id).toBe([...ids][0]);
      type Attempt = { status: number | null; error: string | null; response: string | null };
      const attempts: Attempt[] = log.data[0].attempts;
      expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
      expect(attempts[0]!.response).toBe("status 500");
      // Both retries met a closed kept-alive connection first.
      expect(own.closedKeptAlive).toBe(2);
      const health = (await api("GET", p.admin(`/destinations/${d.id}`), { key: p.keys.support })).body.health;
      expect(health.attempts_24h).toBe(3);
      expect(health.success_rate_24h).toBeCloseTo(1 / 3);
      expect(health.last_error).toBe("answered 500");
      await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
    } finally {
      await own.stop();
    }
  });

  it("loses nothing while the receiver is away, and filters the log by state", async () => {
    const d = (await create({ name: "away", url: rx.url("/away"), events: ["Away"] })).body;
    await rx.stop();
    await track(Array.from({ length: 20 }, (_, i) => ({ name: "Away", user: `away-${i}`, data: { i } })));
    await waitFor(
      async () => {
        const b = await deliveries(d.id, "?state=pending&limit=50");
        return b.data.length === 20 && b.data.every((x: { attempts: unknown[] }) => x.attempts.length >= 1);
      },
      30_000,
      "failed first attempts",
    );
    const pending = await deliveries(d.id, "?state=pending&limit=5");
    expect(pending.data).toHaveLength(5);
    expect(pending.next_cursor).toBeTruthy();
    const second = await deliveries(d.id, `?state=pending&limit=50&cursor=${pending.next_cursor}`);
    expect(second.data).toHaveLength(15);
    expect(pending.data[0].attempts[0].status).toBeNull();
    expect(pending.data[0].next_attempt_at).toBeTruthy();
    await rx.start();
    await waitFor(
      async () => new Set(at("/away").map((r) => r.message.data.event.data.i)).size === 20,
      30_000,
      "all 20",
    );
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("turns a destination off at once on 410 Gone, and says why", async () => {
    const d = (await create({ name: "gone", url: rx.url("/gone"), events: ["Gone"] })).body;
    rx.answerWith((r) => (r.path === "/gone" ? 410 : 200));
    await track([{ name: "Gone", user: "gone-1" }]);
    const off = await waitFor(async () => {
      const b = (await api("GET", p.admin(`/destinations/${d.id}`), { key: p.keys.support })).body;
      return b.enabled ? null : b;
    });
    expect(off.disabled_reason).toContain("410");
    const log = await deliveries(d.id);
    expect(log.data[0].state).toBe("failed");
    expect(log.data[0].attempts).toHaveLength(1);
    rx.answerWith(() => 200);
    // Turned on again: the reason is cleared and new events go out once more.
    const on = await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });
    await track([{ name: "Gone", user: "gone-2" }]);
    await waitFor(
      async () => at("/gone").some((r) => r.message.data.user.identifiers[0].external_id === "gone-2"),
      30_000,
      "a delivery after turning it on",
    );
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("gives up on an attempt that gets no answer within the attempt timeout, and retries it", async () => {
    const d = (await create({ name: "slow", url: rx.url("/slow"), events: ["Slow"] })).body;
    let calls = 0;
    rx.answerWith((r) => (r.path === "/slow" && ++calls === 1 ? "hang" : 200));
    await track([{ name: "Slow", user: "slow-1" }]);
    const log = await waitFor(async () => {
      const b = await deliveries(d.id);
      return b.data[0]?.state === "delivered" ? b : null;
    });
    const [first, second] = log.data[0].attempts;
    expect(first).toMatchObject({ status: null, error: "no answer within 2 s" });
    expect(first.latency_ms).toBeGreaterThanOrEqual(1_900);
    expect(first.latency_ms).toBeLessThan(10_000);
    expect(second.status).toBe(200);
    rx.answerWith(() => 200);
    await api("PATCH", p.admin(`/destinations/${d.id}`), { key: p.keys.editor, body: { enabled: false } });
  });

  it("loses nothing when the worker is SIGKILLed during deliveries", async () => {
    const d = (await create({ name: "kill", url: rx.url("/kill"), events: ["Kill"] })).body;
    rx.answerWith((r) => (r.path === "/kill" && Number(r.message.data.event.data.i) % 3 === 0 ? "hang" : 200));
    await track(Array.from({ length: 150 }, (_, i) => ({ name: "Kill", user: `k-${i % 30}`, data: { i } })));
    await waitFor(async () => at("/kill").length >= 30, 30_000, "deliveries under way");
    rx.answerWith(() => 200);
    await replaceWorker("SIGKILL");
    await waitFor(
      async () =>
        new Set(
          at("/kill")
            .filter((r) => r.answered === 200)
            .map((r) => r.message.data.event.data.i),
        ).size === 150,
      90_000,
      "all 150 after the kill",
    );
    const log = await waitFor(async () => {
      const b = await deliveries(d.id, "?state=pending");
      return b.data.length === 0 ? b : null;
    }, 30_000);
    expect(log.data).toEqual([]);
  }, 180_000);
});
