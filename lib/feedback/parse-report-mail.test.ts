import { describe, expect, it } from "vitest";
import { parseReportMail } from "./parse-report-mail";

const dsn = (action: string, status: string) =>
  Buffer.from(`From: MAILER-DAEMON@mx.example.test
To: b-x@bounces.example.test
Message-Id: <dsn-1@mx.example.test>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B1"

--B1
Content-Type: text/plain

Sorry.

--B1
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test

Final-Recipient: rfc822; nobody@example.com
Action: ${action}
Status: ${status}
Diagnostic-Code: smtp; 550 5.1.1 <nobody@example.com>: Recipient
    address rejected

--B1
Content-Type: text/rfc822-headers

Message-ID: <m-1@relay.example.test>

--B1--
`);

const arf = Buffer.from(`From: fbl@isp.example
To: b-x@bounces.example.test
Message-ID: <arf-1@isp.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="A1"

--A1
Content-Type: text/plain

This is an abuse report.

--A1
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: SomeFBL/1.0
Version: 1
Original-Rcpt-To: <someone@example.com>

--A1
Content-Type: message/rfc822

Return-Path: <b-token@bounces.example.test>
Message-ID: <0190aaaa-0000-7000-8000-000000000001@relay.example.test>
Subject: News

Hello
--A1--
`);

describe("parseReportMail", () => {
  it("reads a DSN's recipient, action, status and folded diagnostic", async () => {
    expect(await parseReportMail(dsn("failed", "5.1.1"))).toEqual({
      kind: "dsn",
      id: "<dsn-1@mx.example.test>",
      recipients: [
        {
          recipient: "nobody@example.com",
          action: "failed",
          status: "5.1.1",
          diagnostic: "smtp; 550 5.1.1 <nobody@example.com>: Recipient address rejected",
        },
      ],
    });
    expect((await parseReportMail(dsn("delayed", "4.4.1 (timeout)"))).kind).toBe("dsn");
  });

  it("reads an ARF complaint's reported Return-Path and Message-ID", async () => {
    expect(await parseReportMail(arf)).toMatchObject({
      kind: "arf",
      feedbackType: "abuse",
      returnPath: "b-token@bounces.example.test",
      messageId: "<0190aaaa-0000-7000-8000-000000000001@relay.example.test>",
      recipient: "someone@example.com",
    });
  });

  it("calls junk, plain mail and a report without its part `other`, never throwing", async () => {
    expect(await parseReportMail(Buffer.from("\u0000\u00ff garbage"))).toEqual({ kind: "other" });
    expect(await parseReportMail(Buffer.from("Subject: hi\n\nplain"))).toEqual({ kind: "other" });
    expect(
      await parseReportMail(
        Buffer.from('Content-Type: multipart/report; report-type=delivery-status; boundary="X"\n\n--X--\n'),
      ),
    ).toEqual({ kind: "other" });
  });
});
