import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { SmtpSink } from "@/scripts/test/smtp-sink";
import { startWorker, waitFor } from "@/scripts/test/worker";
import { p, sink, template, useMessagesProject, workerEnv } from "@/test/fixtures/messages";

/*
 * The kill window seen from a receiver that accepts: a worker SIGKILLed in the middle of a broadcast has
 * handed some messages to the provider without recording them; a new worker sends those again, with the
 * same Message-ID, and nothing else. The killed worker and its successor send to two different SMTP sinks,
 * so each copy says which worker sent it.
 */
useMessagesProject("relay_messages_kill_window", {}, { worker: false });

/** The killed worker's MESSAGES_MAX_IN_FLIGHT: no more than this many messages are claimed and unrecorded. */
const IN_FLIGHT = 20;
const N = 300;

describe("a worker killed mid-broadcast into an accepting provider", () => {
  it("re-sends only what was accepted and not recorded, each copy with the message's Message-ID", async () => {
    // Each acceptance takes 20 ms over 5 pooled connections (~250 a second), so the kill lands mid-broadcast.
    const first = await new SmtpSink().listen();
    first.acceptDelayMs = 20;
    const doomed = await startWorker(process.env.DATABASE_URL!, {
      ...workerEnv(),
      SMTP_URL: `smtp://127.0.0.1:${first.port}`,
      MESSAGES_MAX_IN_FLIGHT: String(IN_FLIGHT),
      // The claims it dies holding are free for its successor after this.
      MESSAGES_LEASE_SECONDS: "3",
    });
    let successor: Awaited<ReturnType<typeof startWorker>> | undefined;
    try {
      await sql`insert into users (project_id, email, data)
        select ${p.projectId}, 'kw-' || g || '@example.com', '{}' from generate_series(1, ${N}) g`;
      const list = await api("POST", p.admin("/lists"), {
        key: p.keys.editor,
        body: { name: "kill-window", kind: "static" },
      });
      await sql`insert into list_members (project_id, list_id, user_id)
        select ${p.projectId}, ${list.body.id}, id from users where project_id = ${p.projectId} and email like 'kw-%'`;
      const templateId = await template({ subject: "Window {{ user.email }}", text: "w" });
      const b = await api("POST", p.admin("/broadcasts"), {
        key: p.keys.editor,
        body: { name: "kill-window", template_id: templateId, list_id: list.body.id },
      });
      expect(b.status).toBe(201);

      await waitFor(async () => first.mails.length >= N / 5, 60_000, "the first worker a fifth of the way through");
      await doomed.stop("SIGKILL");
      // No worker runs now: what is recorded is what the killed worker committed.
      const recorded = new Set(
        (
          await sql`select u.email from messages m join users u on u.project_id = m.project_id and u.id = m.user_id
            where m.project_id = ${p.projectId} and m.broadcast_id = ${b.body.id} and m.state = 'sent'`
        ).map((r) => r.email as string),
      );
      // Mid-broadcast: some accepted, far from all.
      expect(first.mails.length).toBeLessThan(N);

      successor = await startWorker(process.env.DATABASE_URL!, workerEnv());
      const done = await waitFor(
        async () => {
          const v = (await api("GET", p.admin(`/broadcasts/${b.body.id}`), { key: p.keys.support })).body;
          return v.state === "done" && v;
        },
        45_000,
        "the broadcast done",
      );
      expect(done.counts).toEqual({ recipients: N, queued: 0, sent: N, skipped: 0, failed: 0 });

      // Read now, not at the kill: a message whose data had ended may be accepted a moment after.
      const acceptedByFirst = first.mails.length;
      const ids = new Map<string, string>();
      for (const r of await sql`select u.email, m.id from messages m join users u on u.project_id = m.project_id
          and u.id = m.user_id where m.project_id = ${p.projectId} and m.broadcast_id = ${b.body.id}`)
        ids.set(r.email, `<${r.id}@relay.example.test>`);
      expect(ids.size).toBe(N);
      const copies = new Map<string, number>();
      for (const m of [...first.mails, ...sink.mails]) {
        const to = m.to[0]!;
        copies.set(to, (copies.get(to) ?? 0) + 1);
        // Every copy, first or second, carries its message's one Message-ID.
        expect(m.messageId, to).toBe(ids.get(to));
      }
      // None lost: every recipient has at least one copy; none has more than one from either worker.
      expect([...ids.keys()].filter((e) => !copies.has(e))).toEqual([]);
      expect(new Set(first.mails.map((m) => m.to[0])).size).toBe(first.mails.length);
      expect(new Set(sink.mails.map((m) => m.to[0])).size).toBe(sink.mails.length);
      const twice = [...copies].filter(([, n]) => n > 1).map(([e]) => e);
      // A copy sent again was accepted and not recorded when the worker died: never one recorded sent.
      expect(twice.filter((e) => recorded.has(e))).toEqual([]);
      // The bound: only claimed, unrecorded messages can go again. A sender holds at most
      // MESSAGES_MAX_IN_FLIGHT sends at once, and their outcomes are written by group commit as they
      // finish, so what is accepted and unrecorded at any moment is those sends plus the outcomes waiting
      // for the one write in progress (a few milliseconds here).
      expect(twice.length).toBeLessThanOrEqual(IN_FLIGHT);
      expect(twice.length).toBe(acceptedByFirst - recorded.size);
      console.log(
        `[kill-window] first worker accepted ${acceptedByFirst}, recorded ${recorded.size}, sent twice ${twice.length}`,
      );
    } finally {
      await doomed.stop("SIGKILL");
      await successor?.stop();
      await first.close();
    }
  }, 120_000);
});
