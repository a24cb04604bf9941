import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { newUser, p, sink, template, useMessagesProject } from "../../test/fixtures/messages";

/*
 * Broadcasts to a list: each member once, skips with reasons, done only when every message is final,
 * and cancelled while sending.
 */
useMessagesProject("relay_messages_broadcasts");

describe("broadcasts", () => {
  async function listOf(userIds: string[]) {
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: `l-${crypto.randomUUID().slice(0, 8)}`, kind: "static" },
    });
    expect(list.status).toBe(201);
    for (const u of userIds)
      await sql`insert into list_members (project_id, list_id, user_id) values (${p.projectId}, ${list.body.id}, ${u})`;
    return list.body.id as string;
  }
  const broadcast = (id: string) =>
    api("GET", p.admin(`/broadcasts/${id}`), { key: p.keys.support }).then((r) => r.body);

  it("sends once to each member, skips with reasons, and is done only when every message is final", async () => {
    const users = [await newUser(), await newUser(), await newUser({ email: null })];
    const listId = await listOf(users.map((u) => u.id));
    const templateId = await template({ subject: "Broadcast {{ user.email }}", text: "b" });
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "b1", template_id: templateId, list_id: listId },
    });
    expect(b.status).toBe(201);
    const done = await waitFor(
      async () => {
        const v = await broadcast(b.body.id);
        return v.state === "done" && v;
      },
      30_000,
      "broadcast done",
    );
    expect(done.counts).toEqual({ recipients: 3, queued: 0, sent: 2, skipped: 1, failed: 0 });
    for (const u of users.slice(0, 2)) expect(sink.to(u.email!)).toHaveLength(1);
    const log = await api("GET", p.admin(`/messages?broadcast_id=${b.body.id}&state=skipped`), { key: p.keys.support });
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ reason: "no_contact", user_id: users[2]!.id });
  });

  it("cancels while sending: the rest are skipped as cancelled, none is sent twice", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => newUser()));
    const listId = await listOf(users.map((u) => u.id));
    const templateId = await template({ subject: "Slow", text: "s" });
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "slow", template_id: templateId, list_id: listId, rate_per_second: 1 },
    });
    await waitFor(async () => (await broadcast(b.body.id)).counts.sent >= 1, 30_000, "a first message");
    const cancelled = await api("POST", p.admin(`/broadcasts/${b.body.id}/cancel`), { key: p.keys.editor });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe("cancelled");
    const final = await waitFor(
      async () => {
        const v = await broadcast(b.body.id);
        return v.counts.queued === 0 && v.finished_at && v;
      },
      30_000,
      "every message final",
    );
    expect(final.state).toBe("cancelled");
    expect(final.counts.sent + final.counts.skipped).toBe(8);
    expect(final.counts.skipped).toBeGreaterThan(0);
    for (const u of users) expect(sink.to(u.email!).length).toBeLessThanOrEqual(1);
    expect(users.filter((u) => sink.to(u.email!).length === 1)).toHaveLength(final.counts.sent);
  });
});
