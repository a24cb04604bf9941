import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { relayIdFromMessageId } from "./email-webhook-common";
import { mailgunReports } from "./email-webhook-mailgun";
import { postmarkReports } from "./email-webhook-postmark";
import { sendgridReports } from "./email-webhook-sendgrid";
import { snsCanonical } from "./email-webhook-ses";

const id = "0192f0c4-1111-7222-8333-944445555666";
const now = () => String(Math.floor(Date.now() / 1000));

describe("webhook verifiers", () => {
  it("SendGrid: verifies ECDSA over timestamp + body, refuses another key and a stale timestamp", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const key = publicKey.export({ format: "der", type: "spki" }).toString("base64");
    const body = Buffer.from(JSON.stringify([{ event: "delivered", sg_event_id: "e1", "smtp-id": `<${id}@x.test>` }]));
    const req = (ts: string, k = privateKey) => ({
      headers: new Headers({
        "x-twilio-email-event-webhook-timestamp": ts,
        "x-twilio-email-event-webhook-signature": sign("sha256", Buffer.concat([Buffer.from(ts), body]), k).toString(
          "base64",
        ),
      }),
      body,
    });
    expect(sendgridReports(key, req(now()))).toMatchObject([{ kind: "delivered", relayMessageId: id }]);
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    expect(() => sendgridReports(key, req(now(), other))).toThrow(/does not verify/);
    expect(() => sendgridReports(key, req(String(Number(now()) - 301)))).toThrow(/5 minutes/);
  });

  it("Mailgun: HMAC of timestamp + token; a wrong key or a changed token is refused", () => {
    const body = (k: string, token = "tok") => {
      const timestamp = now();
      const signature = createHmac("sha256", k)
        .update(timestamp + token)
        .digest("hex");
      return Buffer.from(
        JSON.stringify({
          signature: { timestamp, token: "tok", signature },
          "event-data": { id: "m1", event: "delivered" },
        }),
      );
    };
    expect(mailgunReports("k", { headers: new Headers(), body: body("k") })).toHaveLength(1);
    expect(() => mailgunReports("k", { headers: new Headers(), body: body("other") })).toThrow(/does not verify/);
    expect(() => mailgunReports("k", { headers: new Headers(), body: body("k", "tok2") })).toThrow(/does not verify/);
  });

  it("Postmark: basic auth, both parts compared", () => {
    const req = (u: string, p: string) => ({
      headers: new Headers({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}` }),
      body: Buffer.from(
        JSON.stringify({ RecordType: "Delivery", MessageID: "pm", Metadata: { "relay-message-id": id } }),
      ),
    });
    const auth = { username: "u", password: "p" };
    expect(postmarkReports(auth, req("u", "p"))).toMatchObject([{ kind: "delivered", relayMessageId: id }]);
    expect(() => postmarkReports(auth, req("u", "x"))).toThrow(/do not match/);
    expect(() => postmarkReports(auth, req("x", "p"))).toThrow(/do not match/);
  });

  it("reads Relay's id from its Message-ID only; SNS's canonical string leaves absent fields out", () => {
    expect(relayIdFromMessageId(`<${id}@relay.test>`)).toBe(id);
    expect(relayIdFromMessageId(`${id}@relay.test`)).toBe(id);
    expect(relayIdFromMessageId(`<x${id}@relay.test>`)).toBeNull();
    expect(relayIdFromMessageId(42)).toBeNull();
    expect(snsCanonical({ Type: "Notification", Message: "m", MessageId: "i", Timestamp: "t", TopicArn: "a" })).toBe(
      "Message\nm\nMessageId\ni\nTimestamp\nt\nTopicArn\na\nType\nNotification\n",
    );
  });
});
