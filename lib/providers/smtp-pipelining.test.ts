import { createServer, type Server, type Socket } from "node:net";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * nodemailer pipelines MAIL FROM, the RCPTs and DATA (RFC 2920) through Relay's patch
 * (patches/nodemailer+7.0.13.patch). A small SMTP server here records what arrives in each read, refuses
 * any address with "refused" in it, and, as some servers do, may answer DATA with 354 although it refused
 * every recipient.
 */
let server: Server;
let port = 0;
const reads: string[] = [];
const delivered: string[] = [];
let acceptDataAnyway = false;

function speak(socket: Socket) {
  let buffer = "";
  let inData = false;
  let message = "";
  let recipients = 0;
  let sender = false;
  socket.write("220 test ESMTP\r\n");
  socket.on("data", (chunk) => {
    reads.push(chunk.toString("latin1"));
    buffer += chunk.toString("latin1");
    const replies: string[] = [];
    for (let nl = buffer.indexOf("\r\n"); nl >= 0; nl = buffer.indexOf("\r\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 2);
      if (inData) {
        if (line === ".") {
          inData = false;
          if (recipients) delivered.push(message);
          replies.push(recipients ? "250 queued" : "554 no valid recipients");
          message = "";
        } else message += `${line}\n`;
        continue;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO") replies.push("250-test\r\n250-PIPELINING\r\n250 8BITMIME");
      else if (verb === "MAIL") {
        recipients = 0;
        sender = !/refused/.test(line);
        replies.push(sender ? "250 ok" : "550 5.7.1 sender refused");
      } else if (verb === "RCPT") {
        if (!sender) replies.push("503 5.5.1 MAIL first");
        else if (/refused/.test(line)) replies.push("550 5.1.1 no such user");
        else {
          recipients++;
          replies.push("250 ok");
        }
      } else if (verb === "DATA") {
        if (recipients || acceptDataAnyway) {
          inData = true;
          replies.push("354 go ahead");
        } else replies.push("554 5.5.1 no valid recipients");
      } else if (verb === "RSET") replies.push("250 ok");
      else if (verb === "QUIT") {
        socket.end("221 bye\r\n");
        return;
      } else replies.push("502 unknown");
    }
    if (replies.length) socket.write(`${replies.join("\r\n")}\r\n`);
  });
  socket.on("error", () => {});
}

beforeAll(async () => {
  server = createServer(speak);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const transport = () =>
  nodemailer.createTransport({ host: "127.0.0.1", port, ignoreTLS: true, pool: true, maxConnections: 1 });
const mail = (to: string[], from = "b-token@bounce.example") => ({
  envelope: { from, to },
  raw: `From: a@example.com\r\nTo: ${to[0]}\r\nSubject: hi\r\n\r\nHello\r\n`,
});

describe("SMTP pipelining", () => {
  it("sends MAIL FROM, the RCPTs and DATA in one write", async () => {
    reads.length = 0;
    const t = transport();
    const info = await t.sendMail(mail(["ann@example.com", "bob@example.com"]));
    t.close();
    expect(info.accepted).toEqual(["ann@example.com", "bob@example.com"]);
    const envelope = reads.find((r) => r.startsWith("MAIL FROM"));
    expect(envelope).toBe(
      "MAIL FROM:<b-token@bounce.example>\r\nRCPT TO:<ann@example.com>\r\nRCPT TO:<bob@example.com>\r\nDATA\r\n",
    );
  });

  it("sends to the recipients accepted and names the refused one", async () => {
    delivered.length = 0;
    const t = transport();
    const info = await t.sendMail(mail(["refused@example.com", "ann@example.com"]));
    t.close();
    expect(info.accepted).toEqual(["ann@example.com"]);
    expect(info.rejected).toEqual(["refused@example.com"]);
    expect(delivered).toHaveLength(1);
  });

  for (const [what, message, server354] of [
    ["every recipient refused", mail(["refused@example.com"]), false],
    ["the sender refused", mail(["ann@example.com"], "refused@example.com"), false],
    ["every recipient refused, DATA answered 354 all the same", mail(["refused@example.com"]), true],
  ] as const)
    it(`fails the message with ${what}, and the connection sends the next one`, async () => {
      delivered.length = 0;
      acceptDataAnyway = server354;
      const t = transport();
      try {
        const failed = await t.sendMail(message).then(
          () => null,
          (err: { code?: string; response?: string }) => err,
        );
        expect(failed?.code).toBe("EENVELOPE");
        expect(failed?.response).toMatch(/^55\d/);
        const next = await t.sendMail(mail(["ann@example.com"]));
        expect(next.accepted).toEqual(["ann@example.com"]);
        expect(delivered).toHaveLength(1);
      } finally {
        acceptDataAnyway = false;
        t.close();
      }
    });
});
