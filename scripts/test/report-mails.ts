/**
 * Report mails as receiving servers and feedback loops write them, for the inbound listener's tests and
 * bench: each `{envelope, raw}` for nodemailer's sendMail, with a Message-ID of its own (an MTA's retry
 * sends the same mail again, so send one object twice to retry).
 */

/** A delivery status notification (RFC 3464) of one recipient, as Postfix writes one. */
export function dsnMail(to: string, opts: { recipient: string; status?: string; action?: string }) {
  const { recipient, status = "5.1.1", action = "failed" } = opts;
  return {
    envelope: { from: "", to },
    raw: [
      "From: MAILER-DAEMON@mx.example.test",
      `To: ${to}`,
      `Message-ID: <dsn-${crypto.randomUUID()}@mx.example.test>`,
      "Subject: Undelivered Mail Returned to Sender",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      "",
      "--B",
      "Content-Type: text/plain",
      "",
      "I'm sorry to have to inform you that your message could not be delivered.",
      "--B",
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.example.test",
      "",
      `Final-Recipient: rfc822; ${recipient}`,
      `Action: ${action}`,
      `Status: ${status}`,
      `Diagnostic-Code: smtp; 550 ${status} <${recipient}>: Recipient address rejected: User unknown`,
      "",
      "--B--",
      "",
    ].join("\r\n"),
  };
}

/** An abuse report in the Abuse Reporting Format (RFC 5965) of a message with these headers. */
export function arfMail(to: string, reported: string[]) {
  return {
    envelope: { from: "", to },
    raw: [
      "From: fbl@isp.example.test",
      `To: ${to}`,
      `Message-ID: <arf-${crypto.randomUUID()}@isp.example.test>`,
      "Subject: Abuse report",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=feedback-report; boundary="A"',
      "",
      "--A",
      "Content-Type: text/plain",
      "",
      "This is an abuse report.",
      "--A",
      "Content-Type: message/feedback-report",
      "",
      "Feedback-Type: abuse",
      "User-Agent: TestFBL/1.0",
      "Version: 1",
      "",
      "--A",
      "Content-Type: message/rfc822",
      "",
      ...reported,
      "Subject: Receipt",
      "",
      "thanks",
      "--A--",
      "",
    ].join("\r\n"),
  };
}
