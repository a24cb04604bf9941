import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { newUser, p, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * When a broadcast goes: a future `send_at` starts on time (not before, and within a bound after), and
 * `in_user_timezone` reads its wall-clock time in each recipient's zone, across daylight-saving changes,
 * with an unknown zone falling back to UTC (nobody dropped, and the message says so).
 */
useMessagesProject("relay_messages_broadcast_timing");

/** The sender starts due broadcasts once a second; starting, claiming and one SMTP exchange fit in the rest. */
const ON_TIME_MS = 3_000;

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

const view = (id: string) => api("GET", p.admin(`/broadcasts/${id}`), { key: p.keys.support }).then((r) => r.body);

/** Each recipient's message: when it is due, and its reason, by user id. */
async function dueOf(broadcastId: string) {
  const rows = await sql`select user_id, next_attempt_at, reason from messages
    where project_id = ${p.projectId} and broadcast_id = ${broadcastId}`;
  return new Map(
    rows.map((r) => [
      r.user_id as string,
      { due: new Date(r.next_attempt_at).toISOString(), reason: r.reason as string | null },
    ]),
  );
}

describe("broadcast timing", () => {
  it("starts a future send_at on time: not before it, and within the bound after", async () => {
    const users = [await newUser(), await newUser()];
    const listId = await listOf(users.map((u) => u.id));
    const templateId = await template({ subject: "On time", text: "t" });
    const sendAt = new Date(Date.now() + 4_000);
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "future", template_id: templateId, list_id: listId, send_at: sendAt.toISOString() },
    });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body.state).toBe("scheduled");
    const done = await waitFor(
      async () => {
        const v = await view(b.body.id);
        return v.state === "done" && v;
      },
      20_000,
      "the broadcast done",
    );
    const started = new Date(done.started_at).getTime();
    expect(started).toBeGreaterThanOrEqual(sendAt.getTime());
    expect(started - sendAt.getTime()).toBeLessThan(ON_TIME_MS);
    for (const u of users) {
      const [mail] = sink.to(u.email!);
      expect(mail!.at).toBeGreaterThanOrEqual(sendAt.getTime());
      expect(mail!.at - sendAt.getTime()).toBeLessThan(ON_TIME_MS);
    }
  });

  it("in_user_timezone: each zone's wall-clock time; an unknown zone falls back to UTC, recorded, nobody dropped", async () => {
    const tokyo = await newUser({ timezone: "Asia/Tokyo" });
    const newYork = await newUser({ timezone: "America/New_York" });
    const none = await newUser();
    const unknown = await newUser();
    const lower = await newUser();
    // A zone spelled in lower case, as rows written before zones were stored canonical hold it.
    await sql`update users set timezone = 'asia/tokyo' where id = ${lower.id}`;
    // A zone the API would refuse, as a zone dropped from the time-zone database leaves it.
    await sql`update users set timezone = 'Mars/Olympus_Mons' where id = ${unknown.id}`;
    const listId = await listOf([tokyo, newYork, none, unknown, lower].map((u) => u.id));
    const templateId = await template({ subject: "Local", text: "l" });
    // Tokyo (UTC+9 all year) reaches this wall-clock time 3 s from now; New York (UTC-5 in December) 14 h later.
    const now = Date.now() - (Date.now() % 1000);
    const wall = new Date(now + 9 * 3_600_000 + 3_000);
    const b = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: {
        name: "local",
        template_id: templateId,
        list_id: listId,
        send_at: wall.toISOString(),
        in_user_timezone: true,
      },
    });
    expect(b.status).toBe(201);
    await waitFor(async () => (await view(b.body.id)).state === "sending", 10_000, "the broadcast started");
    const due = await dueOf(b.body.id);
    expect(due.size).toBe(5);
    const at = (ms: number) => new Date(ms).toISOString();
    expect(due.get(tokyo.id)!.due).toBe(at(now + 3_000));
    expect(due.get(lower.id)).toEqual({ due: at(now + 3_000), reason: null });
    expect(due.get(newYork.id)!.due).toBe(at(wall.getTime() + 5 * 3_600_000));
    expect(due.get(none.id)).toEqual({ due: wall.toISOString(), reason: null });
    expect(due.get(unknown.id)!.due).toBe(wall.toISOString());
    expect(due.get(unknown.id)!.reason).toBe('time zone "Mars/Olympus_Mons" unknown: send_at read as UTC');
    const [mail] = await waitFor(
      async () => sink.to(tokyo.email!).length > 0 && sink.to(tokyo.email!),
      15_000,
      "Tokyo's",
    );
    expect(mail!.at).toBeGreaterThanOrEqual(now + 3_000);
    expect(mail!.at - (now + 3_000)).toBeLessThan(ON_TIME_MS);
    await waitFor(async () => sink.to(lower.email!).length > 0, 15_000, "the lower-case Tokyo's");
    // The sink has a mail before its outcome is written (outcomes wait MESSAGES_GATHER_MS to be written
    // together): the counts are read once both are recorded, and the other three must still be waiting.
    const counts = await waitFor(
      async () => {
        const c = (await view(b.body.id)).counts;
        return c.sent === 2 && c;
      },
      15_000,
      "both Tokyo mails recorded",
    );
    expect(counts).toMatchObject({ recipients: 5, sent: 2, queued: 3 });
    await api("POST", p.admin(`/broadcasts/${b.body.id}/cancel`), { key: p.keys.editor });
  });

  it("in_user_timezone across daylight-saving changes: the day clocks go back, and an hour that does not exist", async () => {
    const paris = await newUser({ timezone: "Europe/Paris" });
    const london = await newUser({ timezone: "Europe/London" });
    const newYork = await newUser({ timezone: "America/New_York" });
    const sydney = await newUser({ timezone: "Australia/Sydney" });
    const listId = await listOf([paris, london, newYork, sydney].map((u) => u.id));
    const templateId = await template({ subject: "DST", text: "d" });
    const start = async (sendAt: string) => {
      const b = await api("POST", p.admin("/broadcasts"), {
        key: p.keys.editor,
        body: { name: sendAt, template_id: templateId, list_id: listId, send_at: sendAt, in_user_timezone: true },
      });
      expect(b.status).toBe(201);
      await waitFor(async () => (await view(b.body.id)).started_at, 10_000, "the broadcast started");
      const due = await dueOf(b.body.id);
      expect(due.size).toBe(4);
      return (u: { id: string }) => due.get(u.id)!.due;
    };
    // 25 October 2026, 09:00: Europe went back to winter time at 01:00 UTC that night, New York not until
    // 1 November; Sydney has been on summer time since 4 October.
    const autumn = await start("2026-10-25T09:00:00Z");
    expect(autumn(paris)).toBe("2026-10-25T08:00:00.000Z");
    expect(autumn(london)).toBe("2026-10-25T09:00:00.000Z");
    expect(autumn(newYork)).toBe("2026-10-25T13:00:00.000Z");
    expect(autumn(sydney)).toBe("2026-10-24T22:00:00.000Z");
    // 29 March 2026, 02:30 does not exist in Paris (at 01:00 UTC 02:00 became 03:00): read with the offset
    // before the change, 01:30 UTC (03:30 on the clock), neither dropped nor a day late. London changed at
    // the same instant, from 01:00 to 02:00, so its 02:30 exists and is summer time: 01:30 UTC too.
    const gap = await start("2026-03-29T02:30:00Z");
    expect(gap(paris)).toBe("2026-03-29T01:30:00.000Z");
    expect(gap(london)).toBe("2026-03-29T01:30:00.000Z");
    expect(gap(newYork)).toBe("2026-03-29T06:30:00.000Z");
  });
});
