import { simpleParser } from "mailparser";

/** One recipient's outcome in a delivery status notification (RFC 3464). */
export interface DsnRecipient {
  recipient: string | null;
  action: string;
  status: string | null;
  diagnostic: string | null;
}

export type ReportMail =
  | { kind: "dsn"; id: string | null; recipients: DsnRecipient[] }
  | {
      kind: "arf";
      id: string | null;
      feedbackType: string | null;
      /** The reported message's envelope sender and Message-ID, from its headers or the report's fields. */
      returnPath: string | null;
      messageId: string | null;
      recipient: string | null;
    }
  | { kind: "other" };

/** Parts read from a report: a DSN's fields and the returned headers are small; anything past this is cut. */
const MAX_PART_CHARS = 64 * 1024;
/** Recipients read from one DSN (one per address the original went to: Relay sends to one). */
const MAX_RECIPIENTS = 50;

/**
 * What a mail to the bounce address reports, read with mailparser: a DSN (`multipart/report;
 * report-type=delivery-status`) with its recipients' actions and statuses, an ARF complaint
 * (`report-type=feedback-report`) with what names the reported message, or neither. Never throws on
 * malformed input (a junk mail is `other`).
 */
export async function parseReportMail(raw: Buffer): Promise<ReportMail> {
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(raw, { keepDeliveryStatus: true, skipHtmlToText: true, skipTextLinks: true });
  } catch {
    return { kind: "other" };
  }
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  if (type?.value?.toLowerCase() !== "multipart/report") return { kind: "other" };
  const reportType = type.params?.["report-type"]?.toLowerCase();
  const part = (...types: string[]) =>
    mail.attachments
      .find((a) => types.includes(a.contentType.toLowerCase()))
      ?.content.toString("utf8")
      .slice(0, MAX_PART_CHARS) ?? null;
  const id = mail.messageId ?? null;
  if (reportType === "delivery-status") {
    const status = part("message/delivery-status", "message/global-delivery-status");
    if (!status) return { kind: "other" };
    const [, ...perRecipient] = fieldBlocks(status);
    const recipients = perRecipient.slice(0, MAX_RECIPIENTS).flatMap((f): DsnRecipient[] => {
      const action = f.get("action")?.toLowerCase();
      if (!action) return [];
      return [
        {
          recipient: typed(f.get("final-recipient") ?? f.get("original-recipient")),
          action,
          status: f.get("status")?.match(/^[245]\.\d{1,3}\.\d{1,3}/)?.[0] ?? null,
          diagnostic: f.get("diagnostic-code")?.slice(0, 1000) ?? null,
        },
      ];
    });
    return { kind: "dsn", id, recipients };
  }
  if (reportType === "feedback-report") {
    const report = part("message/feedback-report");
    if (!report) return { kind: "other" };
    const fields = fieldBlocks(report)[0] ?? new Map<string, string>();
    const original = part("message/rfc822", "text/rfc822-headers");
    const headers = original ? (fieldBlocks(original)[0] ?? new Map<string, string>()) : new Map<string, string>();
    return {
      kind: "arf",
      id,
      feedbackType: fields.get("feedback-type")?.toLowerCase() ?? null,
      returnPath: angle(headers.get("return-path") ?? fields.get("original-mail-from")),
      messageId: headers.get("message-id")?.trim() ?? null,
      recipient: angle(fields.get("original-rcpt-to") ?? headers.get("to")),
    };
  }
  return { kind: "other" };
}

/**
 * Header-style fields in blocks separated by blank lines (a DSN's per-message block, then one per
 * recipient), names lower-cased, folded lines joined; the first field of a name wins.
 */
function fieldBlocks(text: string): Map<string, string>[] {
  const blocks: Map<string, string>[] = [];
  let current = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.replace(/\r\n/g, "\n").split("\n")) {
    if (line.trim() === "") {
      if (current.size) blocks.push(current);
      current = new Map();
      last = null;
    } else if (/^[ \t]/.test(line) && last) {
      current.set(last, `${current.get(last)} ${line.trim()}`);
    } else {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      last = name;
      if (!current.has(name)) current.set(name, line.slice(colon + 1).trim());
    }
  }
  if (current.size) blocks.push(current);
  return blocks;
}

/** `rfc822; someone@example.com` → `someone@example.com`. */
function typed(value: string | undefined): string | null {
  if (!value) return null;
  const semi = value.indexOf(";");
  return (semi >= 0 ? value.slice(semi + 1) : value).trim() || null;
}

/** `<someone@example.com>` (or bare) → `someone@example.com`. */
function angle(value: string | undefined): string | null {
  if (!value) return null;
  const m = value.match(/<([^>]*)>/);
  return (m ? m[1]! : value).trim() || null;
}
