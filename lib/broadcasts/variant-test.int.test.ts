import { describe, expect, it } from "vitest";
import { api, baseUrl, sql } from "@/scripts/test/helpers";
import { stallingSmtp } from "@/scripts/test/smtp-sink";
import { startWorker, waitFor } from "@/scripts/test/worker";
import { p, sink, template, useMessagesProject, workerEnv } from "@/test/fixtures/messages";

/*
 * A broadcast A/B test with real workers and a real SMTP sink: half the list gets variants A and B, the
 * rest is held; opens decide (B wins); the rest is released ten at a time while a second worker, killed
 * with SIGKILL, holds some of them unanswered. Every recipient ends with exactly one message: the test's
 * variant or the winner, mailed once.
 */
useMessagesProject("relay_broadcast_variants", { MESSAGES_MAX_IN_FLIGHT: "10", BROADCAST_START_CHUNK: "10" });

const N = 160;
const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko)";
const pixelOf = (html: string) => new URL(/<img src="([^"]+\/o\/[^"]+)"/.exec(html)![1]!).pathname;

describe("a broadcast's A/B test", () => {
  it("refuses variants without a test, a conversion test without a goal, and variants in users' zones", async () => {
    const a = await template({ subject: "a", html: "<p>a</p>" });
    const b = await template({ subject: "b", html: "<p>b</p>" });
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "refused", kind: "static" },
    });
    const base = { name: "x", list_id: list.body.id, variants: [{ template_id: a }, { template_id: b }] };
    const post = (body: unknown) => api("POST", p.admin("/broadcasts"), { key: p.keys.editor, body });
    expect((await post(base)).status).toBe(400);
    const conv = await post({ ...base, test: { metric: "conversion", decide_after: "4 hours" } });
    expect(conv.status).toBe(400);
    expect(JSON.stringify(conv.body)).toContain("test.metric");
    const zones = await post({ ...base, in_user_timezone: true, test: { metric: "open", decide_after: "4 hours" } });
    expect(zones.status).toBe(400);
    expect(JSON.stringify(zones.body)).toContain("in_user_timezone");
  });

  it("gives each recipient exactly one message, a variant or the winner, across a worker kill", async () => {
    const users = await sql<{ id: string; email: string }[]>`
      insert into users (project_id, email, data)
      select ${p.projectId}, 'ab-' || g || '@example.com', '{}' from generate_series(1, ${N}) g returning id, email`;
    const list = await api("POST", p.admin("/lists"), { key: p.keys.editor, body: { name: "ab", kind: "static" } });
    await sql`insert into list_members (project_id, list_id, user_id)
      select ${p.projectId}, ${list.body.id}, id from users where project_id = ${p.projectId} and email like 'ab-%'`;
    const a = await template({ subject: "Variant A", html: "<html><body><p>A</p></body></html>" });
    const b = await template({ subject: "Variant B", html: "<html><body><p>B</p></body></html>" });
    const created = await api("POST", p.admin("/broadcasts"), {
      key: p.keys.editor,
      body: {
        name: "ab",
        list_id: list.body.id,
        variants: [{ template_id: a }, { template_id: b, weight: 1 }],
        test: { fraction: 0.5, metric: "open", decide_after: "1 hour" },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ template_id: a, test: { fraction: 0.5, metric: "open" } });
    const id = created.body.id as string;
    const arms = () =>
      sql<{ email: string; variant: number; state: string; id: string; template_id: string }[]>`
        select u.email, m.variant, m.state, m.id, m.template_id from messages m
        join users u on u.project_id = m.project_id and u.id = m.user_id
        where m.project_id = ${p.projectId} and m.broadcast_id = ${id}`;

    // The test fraction is sent; the rest waits, held.
    const tested = await waitFor(
      async () => {
        const rows = await arms();
        const test = rows.filter((r) => r.variant >= 0);
        return rows.length === N && test.every((r) => r.state === "sent") && rows;
      },
      60_000,
      "the test fraction sent",
    );
    const test = tested.filter((r) => r.variant >= 0);
    const rest = tested.filter((r) => r.variant === -1);
    expect(test.length + rest.length).toBe(N);
    expect(test.length).toBeGreaterThan(N * 0.3);
    expect(rest.length).toBeGreaterThan(N * 0.3);
    expect(rest.every((r) => r.state === "queued")).toBe(true);
    expect(sink.mails.filter((m) => m.to[0]!.startsWith("ab-"))).toHaveLength(test.length);
    for (const r of test) expect(r.template_id).toBe(r.variant === 0 ? a : b);

    // Opens: every B recipient's mail, one A recipient's. Sent a minute ago: no open is taken for a prefetch.
    await sql`update messages set finished_at = finished_at - interval '1 minute'
      where project_id = ${p.projectId} and broadcast_id = ${id}`;
    const opened = [...test.filter((r) => r.variant === 1), test.find((r) => r.variant === 0)!];
    for (const r of opened) {
      const res = await fetch(new URL(pixelOf(sink.to(r.email)[0]!.html), baseUrl), {
        headers: { "user-agent": BROWSER },
      });
      expect(res.status).toBe(200);
    }
    const before = (await api("GET", p.admin(`/broadcasts/${id}/report`), { key: p.keys.support })).body;
    expect(before.test.winner).toBeNull();
    expect(before.test.variants.map((v: { sent: number; successes: number }) => [v.sent, v.successes])).toEqual([
      [test.filter((r) => r.variant === 0).length, 1],
      [test.filter((r) => r.variant === 1).length, test.filter((r) => r.variant === 1).length],
    ]);

    // A second worker, whose SMTP server takes the data and never answers: it is killed holding some of the
    // released rest, which its short lease brings back to the file's worker.
    const staller = await stallingSmtp();
    const doomed = await startWorker(process.env.DATABASE_URL!, {
      ...workerEnv(),
      SMTP_URL: `smtp://127.0.0.1:${staller.port}`,
      MESSAGES_MAX_IN_FLIGHT: "10",
      MESSAGES_LEASE_SECONDS: "5",
      BROADCAST_START_CHUNK: "10",
      DATABASE_POOL_SIZE: "4",
    });
    try {
      // decide_after has passed: the start an hour back.
      await sql`update broadcasts set started_at = started_at - interval '1 hour'
        where project_id = ${p.projectId} and id = ${id}`;
      await waitFor(async () => staller.held.length > 0, 60_000, "the doomed worker holding released messages");
      await doomed.stop("SIGKILL");
      const done = await waitFor(
        async () => {
          const v = (await api("GET", p.admin(`/broadcasts/${id}`), { key: p.keys.support })).body;
          return v.state === "done" && v;
        },
        120_000,
        "the broadcast done",
      );
      expect(done.counts).toEqual({ recipients: N, queued: 0, sent: N, skipped: 0, failed: 0 });
      const final = await arms();
      expect(final).toHaveLength(N);
      const byEmail = new Map(final.map((r) => [r.email, r]));
      // Each recipient's mails: one Message-ID, its message's; the rest got the winner, B.
      for (const u of users) {
        const mails = sink.to(u.email);
        const row = byEmail.get(u.email)!;
        expect(
          mails.map((m) => m.messageId),
          u.email,
        ).toEqual([`<${row.id}@relay.example.test>`]);
        expect(mails.every((m) => m.subject === (row.variant === 0 ? "Variant A" : "Variant B"))).toBe(true);
        if (row.variant === -1) expect(row.template_id).toBe(b);
      }
      expect(staller.held.every((to) => sink.to(to).length === 1)).toBe(true);
      const report = (await api("GET", p.admin(`/broadcasts/${id}/report`), { key: p.keys.support })).body;
      expect(report.test.winner).toMatchObject({ index: 1, template_id: b });
      expect(report.test.rest.funnel.sent.count).toBe(rest.length);
      expect(report.funnel.sent.count).toBe(N);
      const [decision] = await sql`select count(*)::int as n from ab_decisions
        where project_id = ${p.projectId} and owner_id = ${id}`;
      expect(decision!.n).toBe(1);
    } finally {
      await doomed.stop("SIGKILL");
      staller.close();
    }
  }, 240_000);
});
