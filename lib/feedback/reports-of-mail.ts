import { createHash } from "node:crypto";
import { type BounceTarget, readBounceAddress } from "@/lib/messages/bounce-address";
import { metrics } from "@/lib/observability/metrics";
import { type DsnRecipient, parseReportMail } from "./parse-report-mail";
import type { FeedbackReport } from "./report";

const UUID = /^<?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i;

/**
 * What a mail to bounce addresses reports, by project (`to`: its envelope recipients, each already checked by
 * readBounceAddress). A DSN is about the message its recipient's token names; an ARF complaint about the
 * message named by the token in the reported message's Return-Path, else by its Message-ID
 * (`<message id@host>`, as Relay sets it) within the recipient's project. The dedupe key is the report
 * mail's own Message-ID (or its bytes' hash), so the same report retried by the sending MTA records once.
 * Mail that reports nothing is counted and answers an empty map.
 */
export async function reportsOfMail({ raw, to }: { raw: Buffer; to: BounceTarget[] }) {
  const mail = await parseReportMail(raw);
  const origin = createHash("sha256")
    .update(mail.kind !== "other" && mail.id ? mail.id : raw)
    .digest("base64url")
    .slice(0, 22);
  const byProject = new Map<string, FeedbackReport[]>();
  const add = (projectId: string, r: FeedbackReport) =>
    byProject.set(projectId, [...(byProject.get(projectId) ?? []), r]);
  if (mail.kind === "dsn")
    for (const target of to)
      for (const rcpt of mail.recipients) {
        const r = dsnReport(target.messageId, rcpt, origin);
        if (r) add(target.projectId, r);
      }
  if (mail.kind === "arf") {
    const reported = mail.returnPath ? readBounceAddress(mail.returnPath) : null;
    const byMessageId = mail.messageId?.match(UUID)?.[1];
    const target = reported ?? (byMessageId && to[0] ? { projectId: to[0].projectId, messageId: byMessageId } : null);
    if (target)
      add(target.projectId, {
        messageId: target.messageId,
        kind: "complained",
        source: "smtp",
        dedupeKey: `arf:${origin}`,
        address: mail.recipient,
        detail: { feedback_type: mail.feedbackType },
      });
  }
  if (!byProject.size) metrics.feedbackReports.inc({ source: "smtp", outcome: "not_a_report" });
  return byProject;
}

/**
 * One DSN recipient as a report: `failed` with a 5.x.x status is a hard bounce, with 4.x.x (or
 * `delayed`) a soft one; `delivered` (a requested success notice) is a delivery; other actions
 * (`relayed`, `expanded`) say nothing about the recipient's mailbox.
 */
function dsnReport(messageId: string, r: DsnRecipient, origin: string): FeedbackReport | null {
  const base = {
    messageId,
    source: "smtp" as const,
    dedupeKey: `dsn:${origin}:${(r.recipient ?? "").toLowerCase().slice(0, 320)}:${r.action}`,
    address: r.recipient,
  };
  if (r.action === "delivered") return { ...base, kind: "delivered" };
  if (r.action !== "failed" && r.action !== "delayed") return null;
  const hard = r.action === "failed" && !r.status?.startsWith("4");
  return {
    ...base,
    kind: "bounced",
    bounce: { type: hard ? "hard" : "soft", code: r.status, reason: r.diagnostic },
    detail: { action: r.action },
  };
}
