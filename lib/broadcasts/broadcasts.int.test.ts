import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { stallingSmtp } from "@/scripts/test/smtp-sink";
import { startWorker, waitFor } from "@/scripts/test/worker";
import { newUser, p, sink, template, useMessagesProject, workerEnv } from "@/test/fixtures/messages";

/*
 * Broadcasts to a list: each member once, skips with reasons, done only when every message is final,
 * and cancelled while sending.
 */
// Few messages in a worker's hands at once, so a second worker gets its share of a broadcast.
useMessagesProject("relay_messages_broadcasts", { MESSAGES_MAX_IN_FLIGHT: "10" });

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

  it("two workers, one SIGKILLed mid-broadcast: each recipient mailed once, none missing, the broadcast done", async () => {
    const N = 200;
    // The worker to be killed sends to an SMTP server that takes each message's data and never answers:
    // it is killed holding claimed messages (as after a provider's acceptance not yet recorded), which
    // its short lease brings back to the surviving worker (the file's, sending to the sink).
    const staller = await stallingSmtp();
    const held = staller.held;
    const doomed = await startWorker(process.env.DATABASE_URL!, {
      ...workerEnv(),
      SMTP_URL: `smtp://127.0.0.1:${staller.port}`,
      MESSAGES_MAX_IN_FLIGHT: "20",
      MESSAGES_LEASE_SECONDS: "5",
      DATABASE_POOL_SIZE: "4",
    });
    try {
      const users = await sql<{ id: string; email: string }[]>`
        insert into users (project_id, email, data)
        select ${p.projectId}, 'bk-' || g || '@example.com', '{}' from generate_series(1, ${N}) g
        returning id, email`;
      const listId = await listOf([]);
      await sql`insert into list_members (project_id, list_id, user_id)
        select ${p.projectId}, ${listId}, id from users where project_id = ${p.projectId} and email like 'bk-%'`;
      const templateId = await template({ subject: "Kill {{ user.email }}", text: "k" });
      const b = await api("POST", p.admin("/broadcasts"), {
        key: p.keys.editor,
        body: { name: "killed", template_id: templateId, list_id: listId },
      });
      expect(b.status).toBe(201);
      await waitFor(async () => held.length > 0, 60_000, "the doomed worker holding messages");
      await doomed.stop("SIGKILL");
      expect((await broadcast(b.body.id)).state).toBe("sending");
      const done = await waitFor(
        async () => {
          const v = await broadcast(b.body.id);
          return v.state === "done" && v;
        },
        90_000,
        "broadcast done",
      );
      expect(done.counts).toEqual({ recipients: N, queued: 0, sent: N, skipped: 0, failed: 0 });
      const ids = new Map<string, string>();
      for (const r of await sql`select u.email, m.id from messages m join users u on u.project_id = m.project_id
          and u.id = m.user_id where m.project_id = ${p.projectId} and m.broadcast_id = ${b.body.id}`)
        ids.set(r.email, `<${r.id}@relay.example.test>`);
      expect(ids.size).toBe(N);
      const mails = sink.mails.filter((m) => m.to.some((to) => to.startsWith("bk-")));
      expect(mails.map((m) => m.to[0]).sort()).toEqual(users.map((u) => u.email).sort());
      expect(mails.every((m) => m.messageId === ids.get(m.to[0]!))).toBe(true);
      expect(held.every((to) => sink.to(to).length === 1)).toBe(true);
    } finally {
      await doomed.stop("SIGKILL");
      staller.close();
    }
  }, 240_000);
});
