import { sql as dsql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { systemContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { queueMessage } from "@/lib/messages/queue-message";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, messageRow, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * The sending rules read again at send time, against a real worker and SMTP sink: a user who unsubscribes
 * or opts out of the channel after a message was queued is skipped, an opt-in group's unset state is
 * `not_opted_in`, and a frequency-cap slot taken by a message that then fails for good is given back.
 */
useMessagesProject("relay_messages_send_rules");

/**
 * Queues a message that no sender may take yet: queued and made due in an hour in the same transaction,
 * so what the test changes next happens between queueing and sending. `release` makes it due now.
 */
async function queueHeld(templateId: string, userId: string) {
  const m = await withTransaction(getDb(), async (tx) => {
    const queued = await queueMessage(systemContext(tx, p.projectId), {
      templateId,
      userId,
      cause: { entryId: crypto.randomUUID(), stepKey: "send-1" },
    });
    await tx.execute(dsql`update messages set next_attempt_at = now() + interval '1 hour'
      where project_id = ${p.projectId}::uuid and id = ${queued.id}::uuid`);
    return queued;
  });
  expect(m.state).toBe("queued");
  return { id: m.id, release: () => sql`update messages set next_attempt_at = now() where id = ${m.id}` };
}

const unsubscribe = (externalId: string, group: string) =>
  api("POST", p.client("/users/subscriptions"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: externalId }], subscriptions: [{ group, state: "unsubscribed" }] },
  });

describe("send rules at send time", () => {
  it("skips a user who unsubscribed between queueing and sending, and sends to one who did not", async () => {
    const templateId = await template({ subject: "Later news", text: "n" });
    const gone = await newUser();
    const stays = await newUser();
    const a = await queueHeld(templateId, gone.id);
    const b = await queueHeld(templateId, stays.id);
    expect((await unsubscribe(gone.externalId, "News")).status).toBe(200);
    await a.release();
    await b.release();
    expect(await finalRow(a.id)).toMatchObject({ state: "skipped", reason: "unsubscribed", attempts: 0 });
    expect(await finalRow(b.id)).toMatchObject({ state: "sent" });
    // Both were decided in the same sender; the skipped one never reached the provider.
    expect(sink.to(stays.email!)).toHaveLength(1);
    expect(sink.to(gone.email!)).toHaveLength(0);
  });

  it("skips `channel_opted_out` at queueing and after it, and keeps transactional mail going", async () => {
    const templateId = await template({ subject: "Opted", text: "o" });
    const receipt = await template({ transactional: true, subscription_group: null, subject: "Receipt", text: "r" });
    const before = await newUser();
    await sql`insert into user_channel_opt_outs (project_id, user_id, channel, source)
      values (${p.projectId}, ${before.id}, 'email', 'admin_api')`;
    expect(await queue({ templateId, userId: before.id })).toMatchObject({
      state: "skipped",
      reason: "channel_opted_out",
    });

    const after = await newUser();
    const held = await queueHeld(templateId, after.id);
    await sql`insert into user_channel_opt_outs (project_id, user_id, channel, source)
      values (${p.projectId}, ${after.id}, 'email', 'admin_api')`;
    await held.release();
    expect(await finalRow(held.id)).toMatchObject({ state: "skipped", reason: "channel_opted_out" });

    const exempt = await queue({ templateId: receipt, userId: after.id });
    expect(await finalRow(exempt.id)).toMatchObject({ state: "sent" });
    expect(sink.to(after.email!).map((m) => m.subject)).toEqual(["Receipt"]);
    expect(sink.to(before.email!)).toHaveLength(0);
  });

  it("skips `not_opted_in` in an opt-in group until the user subscribes", async () => {
    const optIn = await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name: "Offers", channel: "email", default_policy: "opt_in" },
    });
    expect(optIn.status, JSON.stringify(optIn.body)).toBe(201);
    const templateId = await template({ subject: "Offer", text: "o", subscription_group: optIn.body.id });
    const user = await newUser();
    expect(await queue({ templateId, userId: user.id })).toMatchObject({ state: "skipped", reason: "not_opted_in" });
    const subscribed = await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: {
        identifier: [{ external_id: user.externalId }],
        subscriptions: [{ group: "Offers", state: "subscribed" }],
      },
    });
    expect(subscribed.status).toBe(200);
    const m = await queue({ templateId, userId: user.id });
    expect(await finalRow(m.id)).toMatchObject({ state: "sent" });
    expect(sink.to(user.email!).map((x) => x.subject)).toEqual(["Offer"]);
  });

  it("gives a frequency-cap slot back when its message fails for good; a retry keeps it", async () => {
    const templateId = await template({ subject: "Capped {{ user.email }}", text: "c" });
    const user = await newUser();
    const set = await api("PATCH", p.admin(""), {
      key: p.keys.admin,
      body: { frequency_cap: { email: { count: 1, per: "1 day" } } },
    });
    expect(set.status).toBe(200);
    try {
      // A transient refusal: the message is retried holding its slot, so a second one meanwhile is capped.
      sink.answer = { code: 451, message: "try again later" };
      const first = await queue({ templateId, userId: user.id });
      await waitFor(async () => (await messageRow(first.id)).attempts >= 1, 20_000, "a first attempt");
      const [held] = await sql`select cap_reserved_at from messages where id = ${first.id}`;
      expect(held!.cap_reserved_at).not.toBeNull();
      const meanwhile = await queue({ templateId, userId: user.id });
      expect(await finalRow(meanwhile.id)).toMatchObject({ state: "skipped", reason: "frequency_cap" });
      // Then a permanent refusal: the first fails for good, and its slot is free again.
      sink.answer = { code: 550, message: "no such mailbox" };
      expect(await finalRow(first.id)).toMatchObject({ state: "failed" });
      sink.answer = null;
      const next = await queue({ templateId, userId: user.id });
      expect(await finalRow(next.id)).toMatchObject({ state: "sent" });
      expect(sink.to(user.email!)).toHaveLength(1);
    } finally {
      sink.answer = null;
      await api("PATCH", p.admin(""), { key: p.keys.admin, body: { frequency_cap: null } });
    }
  });
});
