import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { at, create, deliveries, destinationsForFile, p, rx, secrets, track } from "../../test/fixtures/destinations";

/*
 * The destinations admin API: the secret shown once, roles, refused URLs, rotation, the test ping, and a
 * retry by hand and a replay (admin only). Limits and masking are in destination-doors.int.test.ts.
 */
destinationsForFile("relay_destinations_admin");

describe("the destinations API", () => {
  it("shows the secret once, hides it after, and lets editors write and support read", async () => {
    const made = await create({ name: "api", url: rx.url("/api"), events: ["Nothing"] });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const got = await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body.health).toMatchObject({ backlog: 0, attempts_24h: 0, success_rate_24h: null });
    const list = await api("GET", p.admin("/destinations"), { key: p.keys.support });
    expect(list.body.data.map((d: { id: string }) => d.id)).toContain(made.body.id);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    const rows = async () =>
      (await sql`select name, enabled from destinations where project_id = ${p.projectId} order by name`).map(
        (r) => `${r.name}:${r.enabled}`,
      );
    const before = await rows();
    expect((await create({ name: "x", url: rx.url("/x"), events: ["*"] }, p.keys.support)).status).toBe(403);
    expect(
      (await api("PATCH", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support, body: { enabled: false } }))
        .status,
    ).toBe(403);
    expect((await api("DELETE", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).status).toBe(403);
    // The refusals wrote nothing: no destination made, the one there still on.
    expect(await rows()).toEqual(before);
    const del = await api("DELETE", p.admin(`/destinations/${made.body.id}`), { key: p.keys.editor });
    expect(del.status).toBe(204);
    expect((await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).status).toBe(404);
    expect(await sql`select 1 from destinations where project_id = ${p.projectId} and id = ${made.body.id}`).toEqual(
      [],
    );
  });

  it.each([
    ["https://10.0.0.1/hook", "private"],
    ["http://10.0.0.1/hook", "https"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[::ffff:169.254.169.254]/x", "link-local"],
    ["https://[fd00::1]/x", "private"],
    ["https://127.0.0.2/x", "loopback"],
    ["http://example.com/hook", "https"],
    ["ftp://example.com/x", "https"],
    ["https://user:pw@example.com/x", "password"],
  ])("refuses %s at create with 400 naming url", async (url, word) => {
    const before = await sql`select count(*)::int as n from destinations where project_id = ${p.projectId}`;
    const res = await create({ name: "bad", url, events: ["*"] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("url");
    expect(res.body.errors[0].message).toContain(word);
    const after = await sql`select count(*)::int as n from destinations where project_id = ${p.projectId}`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});

describe("calls on a destination", () => {
  it("rotates the secret: both signatures verify during the overlap", async () => {
    const made = await create({ name: "rotate", url: rx.url("/rotate"), events: ["Rotate"] });
    const old = made.body.secret as string;
    const rotated = await api("POST", p.admin(`/destinations/${made.body.id}/rotate-secret`), { key: p.keys.editor });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    expect(Date.parse(rotated.body.previous_secret_until) - Date.now()).toBeGreaterThan(23 * 3600_000);
    rx.setSecrets([old, rotated.body.secret]);
    await track([{ name: "Rotate", user: "rot" }]);
    await waitFor(async () => at("/rotate").length >= 1);
    expect(at("/rotate")[0]!.verifiedBy).toEqual([0, 1]);
    expect(at("/rotate")[0]!.signature.split(" ")).toHaveLength(2);
    const view = (await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support })).body;
    expect(view.secret_rotating_until).toBe(rotated.body.previous_secret_until);
    secrets.set("/rotate", rotated.body.secret);
    rx.setSecrets([...new Set([...secrets.values(), old])]);
  });

  it("sends a signed test ping and answers with its attempt", async () => {
    const d = (await create({ name: "ping", url: rx.url("/ping"), events: ["Never"] })).body;
    const res = await api("POST", p.admin(`/destinations/${d.id}/test`), { key: p.keys.editor });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("delivered");
    expect(res.body.attempts[0].status).toBe(200);
    expect(at("/ping")[0]!.message.type).toBe("relay.ping");
  });

  it("retries a delivery by hand with its webhook-id, and replays a window (admin only)", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const d = (await create({ name: "replay", url: rx.url("/replay"), events: ["Replay"] })).body;
    await track([
      { name: "Replay", user: "r1" },
      { name: "Replay", user: "r2" },
    ]);
    // Both outcomes written before the retry by hand, so the worker's write cannot land after it.
    const both = await waitFor(async () => {
      const b = await deliveries(d.id);
      return b.data.length === 2 && b.data.every((x: { state: string }) => x.state === "delivered") ? b : null;
    });
    const first = both.data[0];
    // Sending a delivered message again is a replay: admin (an editor's 403 is in destination-doors.int.test.ts).
    const retried = await api("POST", p.admin(`/destinations/${d.id}/deliveries/${first.id}/retry`), {
      key: p.keys.admin,
    });
    expect(retried.status).toBe(202);
    await waitFor(async () => at("/replay").length >= 3);
    expect(at("/replay")[2]!.webhookId).toBe(first.webhook_id);
    const again = await waitFor(async () => {
      const b = await deliveries(d.id);
      const x = b.data.find((y: { id: string }) => y.id === first.id);
      return x?.state === "delivered" && x.attempts.length === 2 ? x : null;
    });
    expect(again.attempts.map((a: { status: number }) => a.status)).toEqual([200, 200]);
    const body = { since };
    expect((await api("POST", p.admin(`/destinations/${d.id}/replay`), { key: p.keys.editor, body })).status).toBe(403);
    // A window past the rules (here 7 days) is a well-formed body breaking a rule: 422, and nothing queued.
    const queuedFor = async () =>
      (
        await sql`select count(*)::int as n from destination_deliveries where project_id = ${p.projectId} and destination_id = ${d.id}`
      )[0]!.n;
    const queuedBefore = await queuedFor();
    const tooWide = { since: new Date(Date.now() - 8 * 86_400_000).toISOString() };
    const wide = await api("POST", p.admin(`/destinations/${d.id}/replay`), { key: p.keys.admin, body: tooWide });
    expect(wide.status).toBe(422);
    expect(wide.body.errors[0].path).toBe("since");
    expect(await queuedFor()).toBe(queuedBefore);
    const replay = await api("POST", p.admin(`/destinations/${d.id}/replay`), { key: p.keys.admin, body });
    expect(replay.status).toBe(202);
    expect(replay.body.queued).toBe(2);
    await waitFor(async () => at("/replay").length >= 5);
    const users = at("/replay")
      .slice(3)
      .map((r) => r.message.data.user.identifiers[0].external_id)
      .sort();
    expect(users).toEqual(["r1", "r2"]);
    expect(new Set(at("/replay").map((r) => r.webhookId)).size).toBe(4);
  });
});
