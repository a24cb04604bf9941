import { createHmac, createSign, generateKeyPairSync, sign } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { finalRow, newUser, p, queue, sink, template, useMessagesProject } from "@/test/fixtures/messages";
import { snsCanonical } from "./email-webhook-ses";

/*
 * E-mail providers' delivery webhooks, each signed as its service signs with keys made here: recorded once,
 * replays record nothing new, forged and stale posts are 401 and write nothing, and an event about another
 * project's message changes nothing.
 */

// SNS: a self-signed RSA certificate stands in for AWS's (the server reads it instead of fetching), and
// SubscribeURL's GET goes to a loopback receiver.
const dir = mkdtempSync(join(tmpdir(), "relay-sns-"));
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    join(dir, "k.pem"),
    "-out",
    join(dir, "c.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=sns.test",
  ],
  { stdio: "ignore" },
);
const snsKey = readFileSync(join(dir, "k.pem"), "utf8");
process.env.SNS_TEST_CERTIFICATE_PEM = readFileSync(join(dir, "c.pem"), "utf8");
const confirmations: string[] = [];
const snsStandIn: Server = createServer((req, res) => {
  confirmations.push(req.url ?? "");
  res.end("<ConfirmSubscriptionResponse/>");
});
await new Promise<void>((r) => snsStandIn.listen(0, "127.0.0.1", r));
process.env.SNS_TEST_ENDPOINT = `http://127.0.0.1:${(snsStandIn.address() as { port: number }).port}`;
useMessagesProject("relay_feedback_webhooks");
afterAll(() => new Promise<void>((r) => snsStandIn.close(() => r())));

const sendgrid = generateKeyPairSync("ec", { namedCurve: "P-256" });
const sendgridPublic = sendgrid.publicKey.export({ format: "der", type: "spki" }).toString("base64");
const MAILGUN_KEY = `key-${crypto.randomUUID()}`;
const POSTMARK = { username: "relay-hook", password: `pw-${crypto.randomUUID()}` };
let providerId = "";
let templateId = "";

beforeAll(async () => {
  const res = await api("POST", p.admin("/providers"), {
    key: p.keys.admin,
    body: {
      channel: "email",
      kind: "smtp",
      name: "Sink",
      url: `smtp://127.0.0.1:${sink.port}`,
      from: "Sink <sink@relay.example.test>",
      feedback: { kind: "mailgun", signing_key: MAILGUN_KEY },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.feedback).toEqual({ kind: "mailgun" });
  expect(JSON.stringify(res.body)).not.toContain(MAILGUN_KEY);
  providerId = res.body.id;
  templateId = await template({ subject: "Hi", text: "hi" });
});

const useFeedback = async (feedback: Record<string, string>) => {
  const res = await api("PATCH", p.admin(`/providers/${providerId}`), { key: p.keys.admin, body: { feedback } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

async function sentMail() {
  const user = await newUser();
  const m = await queue({ templateId, userId: user.id });
  expect((await finalRow(m.id)).state).toBe("sent");
  const mail = await waitFor(async () => sink.to(user.email!)[0], 10_000, "the mail at the sink");
  return { user, id: m.id, messageId: mail.messageId, mail };
}

const post = (body: string, headers: Record<string, string>, id = providerId) =>
  fetch(`${baseUrl}/api/webhooks/email/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const message = async (id: string) => (await api("GET", p.admin(`/messages/${id}`), { key: p.keys.support })).body;
const eventCount = async () => (await sql`select count(*)::int as n from message_events`)[0]!.n as number;
const now = () => Math.floor(Date.now() / 1000);

function sendgridPost(events: unknown[], opts: { at?: number; key?: typeof sendgrid.privateKey } = {}) {
  const body = JSON.stringify(events);
  const ts = String(opts.at ?? now());
  const sig = sign("sha256", Buffer.from(ts + body), opts.key ?? sendgrid.privateKey).toString("base64");
  return post(body, { "x-twilio-email-event-webhook-signature": sig, "x-twilio-email-event-webhook-timestamp": ts });
}

describe("SendGrid", () => {
  it("records a bounce once, refuses a forged, a stale and an unsigned post, and suppresses", async () => {
    const view = await useFeedback({ kind: "sendgrid", public_key: sendgridPublic });
    expect(view.feedback).toEqual({ kind: "sendgrid", public_key: sendgridPublic });
    const m = await sentMail();
    const events = [
      { email: m.user.email, timestamp: now(), "smtp-id": m.messageId, event: "delivered", sg_event_id: "ev-d1" },
      {
        email: m.user.email,
        timestamp: now(),
        "smtp-id": m.messageId,
        event: "bounce",
        type: "bounce",
        status: "5.1.1",
        reason: "550 no such user",
        sg_event_id: "ev-b1",
      },
    ];
    const before = await eventCount();
    const forger = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    expect((await sendgridPost(events, { key: forger })).status).toBe(401);
    const stale = await sendgridPost(events, { at: now() - 6 * 60 });
    expect(stale.status).toBe(401);
    expect((await post(JSON.stringify(events), {})).status).toBe(401);
    expect(await eventCount()).toBe(before);

    expect((await sendgridPost(events)).body).toEqual({ recorded: 2, duplicate: 0, unknown: 0 });
    expect((await sendgridPost(events)).body).toEqual({ recorded: 0, duplicate: 2, unknown: 0 });
    const got = await message(m.id);
    expect(got.delivery).toMatchObject({ state: "bounced", type: "hard", code: "5.1.1" });
    expect(got.events.map((e: { source: string }) => e.source)).toEqual(["sendgrid", "sendgrid"]);
    const [s] =
      await sql`select reason from suppressions where project_id = ${p.projectId} and address = ${m.user.email}`;
    expect(s!.reason).toBe("hard_bounce");
  });
});

describe("Mailgun", () => {
  const signed = (eventData: unknown, opts: { at?: number; key?: string } = {}) => {
    const timestamp = String(opts.at ?? now());
    const token = crypto.randomUUID().replaceAll("-", "");
    const signature = createHmac("sha256", opts.key ?? MAILGUN_KEY)
      .update(timestamp + token)
      .digest("hex");
    return JSON.stringify({ signature: { timestamp, token, signature }, "event-data": eventData });
  };

  it("records a complaint once; forged and stale are 401", async () => {
    await useFeedback({ kind: "mailgun", signing_key: MAILGUN_KEY });
    const m = await sentMail();
    const e = {
      id: "mg-1",
      event: "complained",
      timestamp: now(),
      recipient: m.user.email,
      message: { headers: { "message-id": m.messageId.slice(1, -1) } },
    };
    const before = await eventCount();
    expect((await post(signed(e, { key: "wrong" }), {})).status).toBe(401);
    expect((await post(signed(e, { at: now() - 301 }), {})).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await post(signed(e), {})).body).toEqual({ recorded: 1, duplicate: 0, unknown: 0 });
    // Mailgun retries with a fresh token and signature: the event id makes it the same report.
    expect((await post(signed(e), {})).body).toEqual({ recorded: 0, duplicate: 1, unknown: 0 });
    expect((await message(m.id)).delivery.state).toBe("complained");
  });
});

describe("Postmark", () => {
  const auth = (u: string, pw: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${pw}`).toString("base64")}` });

  it("names the message by the metadata Relay set; wrong credentials are 401", async () => {
    await useFeedback({ kind: "postmark", ...POSTMARK });
    const m = await sentMail();
    expect(m.mail.raw.get("x-pm-metadata-relay-message-id")).toBe(m.id);
    const bounce = JSON.stringify({
      RecordType: "Bounce",
      ID: 4323372036,
      Type: "SoftBounce",
      TypeCode: 4096,
      Email: m.user.email,
      BouncedAt: new Date().toISOString(),
      Details: "mailbox full",
      Metadata: { "relay-message-id": m.id },
    });
    const before = await eventCount();
    expect((await post(bounce, auth(POSTMARK.username, "guess"))).status).toBe(401);
    expect((await post(bounce, {})).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await post(bounce, auth(POSTMARK.username, POSTMARK.password))).body.recorded).toBe(1);
    expect((await post(bounce, auth(POSTMARK.username, POSTMARK.password))).body.duplicate).toBe(1);
    expect((await message(m.id)).delivery).toMatchObject({ state: "bounced", type: "soft" });
  });
});

describe("Amazon SES through SNS", () => {
  const snsMessage = (fields: Record<string, string>, opts: { version?: "1" | "2"; key?: string } = {}) => {
    const version = opts.version ?? "2";
    const m: Record<string, string> = {
      MessageId: crypto.randomUUID(),
      TopicArn: "arn:aws:sns:us-east-1:123456789012:relay",
      Timestamp: new Date().toISOString(),
      SignatureVersion: version,
      SigningCertURL: "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem",
      ...fields,
    };
    const signer = createSign(version === "1" ? "RSA-SHA1" : "RSA-SHA256").update(snsCanonical(m));
    return { ...m, Signature: signer.sign(opts.key ?? snsKey, "base64") };
  };

  it("confirms the subscription, records a bounce once (v1 and v2 signatures), refuses forged, stale and foreign hosts", async () => {
    await useFeedback({ kind: "ses" });
    const confirm = snsMessage({
      Type: "SubscriptionConfirmation",
      Message: "confirm",
      Token: "tok",
      SubscribeURL: "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=tok",
    });
    expect((await post(JSON.stringify(confirm), {})).status).toBe(200);
    expect(confirms()).toContain("/?Action=ConfirmSubscription&Token=tok");
    const elsewhere = snsMessage({
      Type: "SubscriptionConfirmation",
      Message: "x",
      Token: "t2",
      SubscribeURL: "https://evil.example.com/?Token=t2",
    });
    expect((await post(JSON.stringify(elsewhere), {})).status).toBe(401);
    expect(confirms()).not.toContain("/?Token=t2");

    const m = await sentMail();
    const bounce = JSON.stringify({
      notificationType: "Bounce",
      bounce: {
        bounceType: "Permanent",
        bounceSubType: "General",
        timestamp: new Date().toISOString(),
        bouncedRecipients: [{ emailAddress: m.user.email, status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1" }],
      },
      mail: { messageId: "ses-1", commonHeaders: { messageId: m.messageId } },
    });
    const note = snsMessage({ Type: "Notification", Message: bounce, Subject: "bounce" }, { version: "1" });
    const before = await eventCount();
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      format: "pem",
      type: "pkcs8",
    });
    expect(
      (await post(JSON.stringify(snsMessage({ Type: "Notification", Message: bounce }, { key: String(other) })), {}))
        .status,
    ).toBe(401);
    expect(
      (await post(JSON.stringify({ ...note, Message: bounce.replace("Permanent", "Transient") }), {})).status,
    ).toBe(401);
    const stale = snsMessage({
      Type: "Notification",
      Message: bounce,
      Timestamp: new Date(Date.now() - 360_000).toISOString(),
    });
    expect((await post(JSON.stringify(stale), {})).status).toBe(401);
    const badHost = snsMessage({ Type: "Notification", Message: bounce, SigningCertURL: "https://sns.evil.com/c.pem" });
    expect((await post(JSON.stringify(badHost), {})).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await post(JSON.stringify(note), {})).body).toEqual({ recorded: 1, duplicate: 0, unknown: 0 });
    expect((await post(JSON.stringify(note), {})).body).toEqual({ recorded: 0, duplicate: 1, unknown: 0 });
    expect((await message(m.id)).delivery).toMatchObject({ state: "bounced", type: "hard", code: "5.1.1" });
    const delivered = JSON.stringify({
      notificationType: "Delivery",
      delivery: { timestamp: new Date().toISOString(), recipients: [m.user.email] },
      mail: { messageId: "ses-1", commonHeaders: { messageId: m.messageId } },
    });
    expect(
      (await post(JSON.stringify(snsMessage({ Type: "Notification", Message: delivered })), {})).body.recorded,
    ).toBe(1);
    // A late `delivered` is kept as an event, and the bounce stays.
    expect((await message(m.id)).delivery.state).toBe("bounced");
  });
});
const confirms = () => confirmations;

describe("across projects", () => {
  it("an event about another project's message, posted to that project's provider, changes nothing", async () => {
    await useFeedback({ kind: "mailgun", signing_key: MAILGUN_KEY });
    const m = await sentMail();
    const other = await createTestProject("webhooks-other");
    const theirs = await api("POST", `/api/admin/projects/${other.projectId}/providers`, {
      key: other.keys.admin,
      body: {
        channel: "email",
        kind: "smtp",
        name: "o",
        url: `smtp://127.0.0.1:${sink.port}`,
        from: "o@relay.example.test",
        feedback: { kind: "mailgun", signing_key: MAILGUN_KEY },
      },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const timestamp = String(now());
    const token = "t".repeat(40);
    const signature = createHmac("sha256", MAILGUN_KEY)
      .update(timestamp + token)
      .digest("hex");
    const body = JSON.stringify({
      signature: { timestamp, token, signature },
      "event-data": {
        id: "mg-x",
        event: "failed",
        severity: "permanent",
        message: { headers: { "message-id": m.messageId } },
      },
    });
    const before = await eventCount();
    expect((await post(body, {}, theirs.body.id)).body).toEqual({ recorded: 0, duplicate: 0, unknown: 1 });
    expect((await post(body, {}, crypto.randomUUID())).status).toBe(401);
    expect((await post(body, {}, "not-a-uuid")).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect((await message(m.id)).delivery).toBeNull();
  });
});
