import { describe, expect, it } from "vitest";
import { api, baseUrl, eventsOf, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { newUser, p, sink, template, useMessagesProject } from "@/test/fixtures/messages";

/*
 * Reports from known actions: a broadcast to four users (one without an address), opens by a browser
 * and by a mail scanner, a forged pixel, and goal events before, inside and after the goal's window.
 * Every figure of the funnel is what the test did, counted from the rollups.
 */
useMessagesProject("relay_reports");

const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko)";
const SCANNER = "Mozilla/5.0 (compatible; Barracuda Sentinel)";

const pixelOf = (html: string) => {
  const src = /<img src="([^"]+\/o\/[^"]+)"/.exec(html)?.[1];
  expect(src, "the mail's open pixel").toBeTruthy();
  return new URL(src!).pathname;
};
const fetchPixel = (path: string, ua: string) => fetch(new URL(path, baseUrl), { headers: { "user-agent": ua } });
const track = (externalId: string, total: number, at: Date) =>
  api("POST", p.client("/users/events"), {
    key: p.keys.client,
    body: [
      { name: "Purchased", identifier: [{ external_id: externalId }], data: { total }, timestamp: at.toISOString() },
    ],
  });

describe("reports", () => {
  it("counts sends, unique opens apart from machine opens, and conversions within the goal's window", async () => {
    const users = [await newUser(), await newUser(), await newUser(), await newUser({ email: null })];
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: `l-${crypto.randomUUID().slice(0, 8)}`, kind: "static" },
    });
    for (const u of users)
      await sql`insert into list_members (project_id, list_id, user_id) values (${p.projectId}, ${list.body.id}, ${u.id})`;
    const templateId = await template({ subject: "Sale", html: "<html><body><p>Sale</p></body></html>" });
    const goal = { event: "Purchased", within: "1 day", value_path: "data.total" };
    const created = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: { name: "sale", template_id: templateId, list_id: list.body.id, goal },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.goal).toEqual(goal);
    const id = created.body.id as string;
    await waitFor(
      async () => (await api("GET", p.admin(`/broadcasts/${id}`), { key: p.keys.support })).body.state === "done",
      30_000,
      "broadcast done",
    );
    const [a, b, c] = users.map((u) => sink.to(u.email ?? "")[0]!);

    // Sent a minute ago, so no open below is taken for a fetch at delivery (machine-open.ts); C's message
    // three days ago, outside the goal's window.
    await sql`update messages set finished_at = finished_at - interval '1 minute'
      where project_id = ${p.projectId} and broadcast_id = ${id}`;
    await sql`update messages set finished_at = finished_at - interval '3 days'
      where project_id = ${p.projectId} and broadcast_id = ${id} and user_id = ${users[2]!.id}`;

    // A: opened twice by a person; B: fetched by a scanner; C: never opened.
    for (let i = 0; i < 2; i++) expect((await fetchPixel(pixelOf(a!.html), BROWSER)).status).toBe(200);
    await fetchPixel(pixelOf(b!.html), SCANNER);
    // Forged and changed tokens answer the same image and record nothing.
    const forged = await fetchPixel("/o/eyJwIjoiMSJ9.bm90LWEtbWFj", BROWSER);
    expect(forged.status).toBe(200);
    expect(forged.headers.get("content-type")).toBe("image/gif");
    await fetchPixel(`${pixelOf(c!.html)}x`, BROWSER);

    // Goal events, in one batch (step 4 records its conversions in one transaction): A inside the window
    // twice (one conversion, the first event's value), B an hour before its message was sent, C inside
    // the window of no message (its message is three days old).
    const now = Date.now();
    const goalEvents = [
      [users[0]!.externalId, 30, now - 1000],
      [users[0]!.externalId, 99, now - 500],
      [users[1]!.externalId, 50, now - 3_600_000],
      [users[2]!.externalId, 70, now - 1000],
    ] as const;
    const sent = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: goalEvents.map(([externalId, total, at]) => ({
        name: "Purchased",
        identifier: [{ external_id: externalId }],
        data: { total },
        timestamp: new Date(at).toISOString(),
      })),
    });
    expect(sent.status).toBe(202);
    const report = await waitFor(
      async () => {
        const r = await api("GET", p.admin(`/broadcasts/${id}/report`), { key: p.keys.support });
        return r.body.funnel?.converted?.count >= 1 && r.body;
      },
      30_000,
      "the conversion counted",
    );
    const final = (await api("GET", p.admin(`/broadcasts/${id}/report`), { key: p.keys.support })).body;
    expect(final.funnel).toMatchObject({
      sent: { count: 3, rate: 1 },
      opened: { count: 1, rate: 1 / 3 },
      opened_machine: { count: 1 },
      converted: { count: 1, rate: 1 / 3 },
      conversion_value: 30,
      rate_base: "sent",
    });
    expect(report.series.length).toBeGreaterThan(0);
    expect(report.series[0]).toMatchObject({ unit: "hour" });
    const [eng] = await sql`select opens, machine_opens from message_engagement e join messages m
      on m.project_id = e.project_id and m.id = e.message_id where m.user_id = ${users[0]!.id} and m.broadcast_id = ${id}`;
    expect(eng).toMatchObject({ opens: 2, machine_opens: 0 });
    // One message.opened per opened message (A by a person, B by a machine), none for C.
    const opened = await eventsOf(p.projectId, "message.opened");
    expect(opened.map((e) => [e.user_id, e.data.machine]).sort()).toEqual(
      [
        [users[0]!.id, false],
        [users[1]!.id, true],
      ].sort(),
    );
    // The template's report counts the same messages.
    const t = (await api("GET", p.admin(`/templates/${templateId}/report`), { key: p.keys.support })).body;
    expect(t.funnel.sent.count).toBe(3);
    expect(t.funnel.converted.count).toBe(1);

    // The overview's messages per hour: the project's own rollups, the same three sends and one open by a
    // person (the machine's is not an open there either).
    const o = (await api("GET", p.admin("/overview"), { key: p.keys.support })).body;
    expect(o.messages_per_hour).toHaveLength(48);
    const total = (k: string) => o.messages_per_hour.reduce((n: number, h: Record<string, number>) => n + h[k]!, 0);
    expect(["sent", "delivered", "bounced", "opened", "clicked"].map(total)).toEqual([3, 0, 0, 1, 0]);

    // The messages behind a delivery figure: those with a report of that kind (one written here).
    const listed = (event: string) =>
      api("GET", p.admin(`/messages?broadcast_id=${id}&event=${event}`), { key: p.keys.support });
    expect((await listed("delivered")).body.data).toEqual([]);
    const [am] = await sql`select id from messages where project_id = ${p.projectId} and user_id = ${users[0]!.id}
      and broadcast_id = ${id}`;
    await sql`insert into message_events (project_id, message_id, kind, source, dedupe_key)
      values (${p.projectId}, ${am!.id}, 'delivered', 'smtp', 'test-delivered')`;
    expect((await listed("delivered")).body.data.map((m: { id: string }) => m.id)).toEqual([am!.id]);
    expect((await listed("bounced")).body.data).toEqual([]);
    expect((await listed("opened")).body.data.map((m: { id: string }) => m.id)).toEqual([am!.id]);

    // Every writer above (sends, opens, conversions) added to the daily rollups exactly what it added to
    // the hourly ones, which the reports read past their first 48 hours.
    const [diff] = await sql`
      select count(*)::int as n from (
        (select scope, scope_id, metric, date_trunc('day', hour, 'UTC') as day, shard, sum(count) as n, sum(value) as v
          from message_rollups where project_id = ${p.projectId} group by 1, 2, 3, 4, 5
        except select scope, scope_id, metric, day, shard, count, value from message_rollups_daily
          where project_id = ${p.projectId})
        union all
        (select scope, scope_id, metric, day, shard, count, value from message_rollups_daily
          where project_id = ${p.projectId}
        except select scope, scope_id, metric, date_trunc('day', hour, 'UTC'), shard, sum(count), sum(value)
          from message_rollups where project_id = ${p.projectId} group by 1, 2, 3, 4, 5)) d`;
    expect(diff!.n).toBe(0);
  });

  it("answers 404 for another project's or an unknown broadcast, and the goal is validated", async () => {
    const unknown = "00000000-0000-7000-8000-000000000000";
    expect((await api("GET", p.admin(`/broadcasts/${unknown}/report`), { key: p.keys.support })).status).toBe(404);
    const bad = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: {
        name: "x",
        template_id: unknown,
        list_id: unknown,
        goal: { event: "Purchased", within: "forever" },
      },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("goal.within");
  });
});
