import { createServer } from "node:net";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql as drizzleSql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { getDb } from "../../db/client";
import { systemContext } from "../access/context";
import { withTransaction } from "../db/transaction";
import { bounceAddress } from "../messages/bounce-address";
import { messageViews } from "../messages/message-view";
import { queueMessage } from "../messages/queue-message";
import { api, createTestProject, ownDatabaseForFile, sql, type TestProject } from "../../scripts/test/helpers";
import { TEST_AUTH_SECRET } from "../../scripts/test/next-server";
import { postfixInstalled, startPostfix, type PrivatePostfix } from "../../scripts/test/postfix";
import { arfMail, dsnMail } from "../../scripts/test/report-mails";
import { startWorker, type TestWorker, waitFor } from "../../scripts/test/worker";

/*
 * Bounces the way they happen: Relay's worker sends through a real Postfix, which relays to a receiver
 * that refuses one recipient with `550 5.1.1`; Postfix writes the DSN itself and delivers it, through a
 * transport map for BOUNCE_DOMAIN, to the worker's inbound SMTP port. Then junk, floods, and a worker
 * killed while DSNs arrive.
 */
const BOUNCE_DOMAIN = "bounces.relay.test";
process.env.AUTH_SECRET ??= TEST_AUTH_SECRET;
ownDatabaseForFile("relay_feedback_inbound");

let p: TestProject;
let postfix: PrivatePostfix;
let receiver: SMTPServer;
let worker: TestWorker;
let inboundPort: number;
const received: string[] = [];

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const workerEnv = () => ({
  SMTP_URL: `smtp://127.0.0.1:${postfix.port}?tls=none`,
  MAIL_FROM: "Relay Test <news@relay.example.test>",
  AUTH_URL: "https://relay.example.test",
  BOUNCE_DOMAIN,
  INBOUND_SMTP_PORT: String(inboundPort),
  INBOUND_SMTP_PEER_CONNECTIONS: "5",
  MESSAGES_POLL_MS: "100",
});

beforeAll(async () => {
  if (!postfixInstalled()) throw new Error("Postfix is not installed (apt-get install postfix)");
  receiver = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo: (address, _s, cb) =>
      address.address.startsWith("nobody-")
        ? cb(
            Object.assign(new Error("5.1.1 <nobody>: Recipient address rejected: User unknown"), { responseCode: 550 }),
          )
        : cb(),
    onData: (stream, session, cb) => {
      stream.resume();
      stream.on("end", () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        cb();
      });
    },
  });
  // A sender killed mid-exchange resets its socket, and smtp-server re-emits that as the server's 'error':
  // without a listener it is an uncaught exception of the whole test run.
  receiver.on("error", () => {});
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  inboundPort = await freePort();
  postfix = await startPostfix({
    relayTo: (receiver.server.address() as { port: number }).port,
    transports: { [BOUNCE_DOMAIN]: inboundPort },
    // A refused delivery to the inbound port (a killed worker) is tried again within seconds.
    extra: ["minimal_backoff_time = 1s", "maximal_backoff_time = 2s", "queue_run_delay = 1s"],
  });
  p = await createTestProject("inbound");
  worker = await startWorker(process.env.DATABASE_URL!, workerEnv());
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await postfix?.stop();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

async function newUser(local: string) {
  const res = await api("POST", p.client("/users"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: local }], email: `${local}@example.com` },
  });
  expect(res.status).toBeLessThan(300);
  return { id: res.body.id as string, email: res.body.email as string };
}

let templateId: string;
const send = async (userId: string) => {
  if (!templateId) {
    const res = await api("POST", p.admin("/templates"), {
      key: p.keys.editor,
      body: { name: "receipt", channel: "email", transactional: true, subject: "Receipt", text: "thanks" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    templateId = res.body.id;
  }
  return withTransaction(getDb(), (tx) =>
    queueMessage(systemContext(tx, p.projectId), {
      templateId,
      userId,
      cause: { entryId: crypto.randomUUID(), stepKey: "s" },
    }),
  );
};

/** The message as the API shows it: its state and its delivery (its strongest report). */
const delivery = async (id: string) =>
  (await messageViews(systemContext(getDb(), p.projectId), { where: drizzleSql`m.id = ${id}::uuid`, limit: 1 }))[0]!;

describe("inbound bounces through a real Postfix", () => {
  it("marks the message bounced hard from Postfix's own DSN, suppresses the address and skips the next send", async () => {
    const gone = await newUser(`nobody-${crypto.randomUUID().slice(0, 8)}`);
    const fine = await newUser(`fine-${crypto.randomUUID().slice(0, 8)}`);
    const bad = await send(gone.id);
    const good = await send(fine.id);
    const bounced = await waitFor(
      async () => {
        const d = await delivery(bad.id);
        return d.delivery?.state === "bounced" && d;
      },
      60_000,
      "the DSN recorded",
    );
    expect(bounced.state).toBe("sent");
    expect(bounced.delivery).toMatchObject({ state: "bounced", type: "hard", code: "5.1.1" });
    const [s] =
      await sql`select reason, source, message_id from suppressions where project_id = ${p.projectId} and address = ${gone.email}`;
    expect(s).toEqual({ reason: "hard_bounce", source: "smtp", message_id: bad.id });
    expect(await send(gone.id)).toMatchObject({ state: "skipped", reason: "suppressed" });
    await waitFor(async () => received.includes(fine.email), 30_000, "the good message relayed");
    expect((await delivery(good.id)).delivery).toBeNull();
    const events =
      await sql`select name, data from events where project_id = ${p.projectId} and user_id = ${gone.id} and name = 'message.bounced'`;
    expect(events).toHaveLength(1);
  });
});

const inbound = () => nodemailer.createTransport(`smtp://127.0.0.1:${inboundPort}`, { ignoreTLS: true });

describe("the inbound listener's bounds", () => {
  it("refuses other recipients with 550, drops junk for a valid token without writing, and refuses what is too large", async () => {
    await expect(
      inbound().sendMail({ from: "x@y.test", to: `someone@${BOUNCE_DOMAIN}`, subject: "hi", text: "hi" }),
    ).rejects.toMatchObject({ responseCode: 550 });
    await expect(
      inbound().sendMail({ from: "x@y.test", to: "b-aaaa@elsewhere.test", subject: "hi", text: "hi" }),
    ).rejects.toMatchObject({ responseCode: 550 });
    const fine = await newUser(`junk-${crypto.randomUUID().slice(0, 8)}`);
    const m = await send(fine.id);
    await waitFor(async () => (await delivery(m.id)).state === "sent" && true, 30_000, "sent");
    const to = bounceAddress({ projectId: p.projectId, messageId: m.id }, BOUNCE_DOMAIN)!;
    const before = (await sql`select count(*)::int as n from message_events`)[0]!.n;
    const info = await inbound().sendMail({ from: "", to, subject: "not a report", text: "junk" });
    expect(info.accepted).toEqual([to]);
    expect((await sql`select count(*)::int as n from message_events`)[0]!.n).toBe(before);
    await expect(
      inbound().sendMail({ from: "", to, subject: "big", text: "x".repeat(3 * 1024 * 1024) }),
    ).rejects.toMatchObject({ responseCode: 552 });
  });

  it("takes a flood of junk for a valid token without writing, then still records a real DSN once", async () => {
    const fine = await newUser(`flood-${crypto.randomUUID().slice(0, 8)}`);
    const m = await send(fine.id);
    await waitFor(async () => (await delivery(m.id)).state === "sent" && true, 30_000, "sent");
    const to = bounceAddress({ projectId: p.projectId, messageId: m.id }, BOUNCE_DOMAIN)!;
    const count = async () =>
      (
        await sql`select (select count(*) from message_events)::int as e, (select count(*) from suppressions)::int as s`
      )[0];
    const before = await count();
    const junk = (i: number) =>
      [
        `Subject: junk ${i}\r\n\r\nnothing to report`,
        `Content-Type: multipart/report; report-type=delivery-status; boundary="J"\r\n\r\n--J\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\nStatus: 5.1.1\r\n--J--\r\n`,
        `Content-Type: multipart/report; report-type=feedback-report; boundary="K"\r\n\r\n--K--\r\n`,
        `Content-Type: multipart/report; report-type=delivery-status; boundary="L"\r\n\r\n${"\u0000\u00ff".repeat(500)}`,
      ][i % 4]!;
    // Over the peer's bound in connections, one after another on each: every one taken and dropped.
    const pool = nodemailer.createTransport({
      pool: true,
      maxConnections: 5,
      maxMessages: Number.POSITIVE_INFINITY,
      host: "127.0.0.1",
      port: inboundPort,
      ignoreTLS: true,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) => pool.sendMail({ envelope: { from: "", to }, raw: junk(i) })),
    );
    pool.close();
    expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
    expect(await count()).toEqual(before);
    // The pool's connections end with its QUIT; the next test counts this peer's connections again.
    await new Promise((r) => setTimeout(r, 1000));
    // The MTA's retry of one DSN: the same mail twice, one event.
    const real = dsnFor(to, 0);
    await inbound().sendMail(real);
    await inbound().sendMail(real);
    expect((await delivery(m.id)).delivery).toMatchObject({ state: "bounced", type: "hard" });
    expect((await sql`select 1 from message_events where message_id = ${m.id}`).length).toBe(1);
  });

  it("holds connections from one peer to its bound", async () => {
    const { connect } = await import("node:net");
    const greetings = await Promise.all(
      Array.from(
        { length: 12 },
        () =>
          new Promise<{ code: string; socket: ReturnType<typeof connect> }>((resolve) => {
            const socket = connect(inboundPort, "127.0.0.1");
            socket.once("data", (d) => resolve({ code: String(d).slice(0, 3), socket }));
            socket.once("error", () => resolve({ code: "err", socket }));
          }),
      ),
    );
    for (const g of greetings) g.socket.destroy();
    expect(greetings.filter((g) => g.code === "220")).toHaveLength(5);
    expect(greetings.filter((g) => g.code === "421")).toHaveLength(7);
  });
});

describe("ARF complaints through the listener", () => {
  it("marks the message complained by the reported Return-Path's token, else by its Message-ID; once each", async () => {
    const a = await newUser(`arf-a-${crypto.randomUUID().slice(0, 8)}`);
    const b = await newUser(`arf-b-${crypto.randomUUID().slice(0, 8)}`);
    const ma = await send(a.id);
    const mb = await send(b.id);
    for (const m of [ma, mb])
      await waitFor(async () => (await delivery(m.id)).state === "sent" && true, 30_000, "sent");
    const tokenOf = (id: string) => bounceAddress({ projectId: p.projectId, messageId: id }, BOUNCE_DOMAIN)!;
    // By the Return-Path: the report is sent to another message's bounce address, as a feedback loop's is.
    const byReturnPath = arfMail(tokenOf(mb.id), [
      `Return-Path: <${tokenOf(ma.id)}>`,
      "Message-ID: <not-relays@elsewhere.test>",
    ]);
    // By the Message-ID alone, within the project of the address it came to.
    const byMessageId = arfMail(tokenOf(ma.id), [`Message-ID: <${mb.id}@relay.example.test>`]);
    for (const mail of [byReturnPath, byReturnPath, byMessageId, byMessageId]) await inbound().sendMail(mail);
    for (const [m, u] of [
      [ma, a],
      [mb, b],
    ] as const) {
      expect((await delivery(m.id)).delivery).toMatchObject({ state: "complained" });
      const events = await sql`select kind, source from message_events where message_id = ${m.id}`;
      expect(events).toEqual([{ kind: "complained", source: "smtp" }]);
      const told =
        await sql`select 1 from events where project_id = ${p.projectId} and user_id = ${u.id} and name = 'message.complained'`;
      expect(told).toHaveLength(1);
      const [s] =
        await sql`select reason, message_id from suppressions where project_id = ${p.projectId} and address = ${u.email}`;
      expect(s).toEqual({ reason: "complaint", message_id: m.id });
    }
    expect(await send(a.id)).toMatchObject({ state: "skipped", reason: "suppressed" });
  });
});

const dsnFor = (to: string, n: number) => dsnMail(to, { recipient: `user-${n}@example.com` });

describe("a worker killed while reports arrive", () => {
  it("loses none and doubles none: Postfix sends again what was not answered, each recorded once", async () => {
    const N = 150;
    // In tens: 150 requests at once find the test server's small pool busy (503).
    const users: { id: string }[] = [];
    for (let i = 0; i < N; i += 10)
      users.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, k) => newUser(`kill-${i + k}-${crypto.randomUUID().slice(0, 6)}`)),
        )),
      );
    const ids: string[] = [];
    for (const u of users) ids.push((await send(u.id)).id);
    await waitFor(
      async () =>
        (await sql`select count(*)::int as n from messages where id = any(${ids}) and state = 'sent'`)[0]!.n === N,
      120_000,
      "all sent",
    );
    const submit = nodemailer.createTransport(`smtp://127.0.0.1:${postfix.port}?pool=true&maxConnections=4`, {
      ignoreTLS: true,
    });
    await Promise.all(
      ids.map((id, n) =>
        submit.sendMail(dsnFor(bounceAddress({ projectId: p.projectId, messageId: id }, BOUNCE_DOMAIN)!, n)),
      ),
    );
    submit.close();
    const recorded = async () =>
      (await sql`select count(*)::int as n from message_events where message_id = any(${ids})`)[0]!.n as number;
    const atKill = await waitFor(
      async () => {
        const n = await recorded();
        return n >= 5 && n;
      },
      60_000,
      "the first DSNs recorded",
    );
    await worker.stop("SIGKILL");
    worker = await startWorker(process.env.DATABASE_URL!, workerEnv());
    await waitFor(async () => (await recorded()) >= N, 240_000, "every DSN recorded after the restart");
    expect(atKill).toBeLessThan(N);
    expect(await recorded()).toBe(N);
    const events =
      await sql`select count(*)::int as n from events where project_id = ${p.projectId} and name = 'message.bounced' and (data->>'message_id')::uuid = any(${ids})`;
    expect(events[0]!.n).toBe(N);
    const suppressed =
      await sql`select count(*)::int as n from suppressions where project_id = ${p.projectId} and message_id = any(${ids})`;
    expect(suppressed[0]!.n).toBe(N);
  }, 480_000);
});
