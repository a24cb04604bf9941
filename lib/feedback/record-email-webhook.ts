import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { messageProviders } from "@/db/schema";
import { type AppContext, systemContext } from "@/lib/access/context";
import { Unauthorized } from "@/lib/http/errors";
import { feedbackSettings } from "./feedback-settings";
import type { WebhookRequest } from "./email-webhook-common";
import { mailgunReports } from "./email-webhook-mailgun";
import { postmarkReports } from "./email-webhook-postmark";
import { sendgridReports } from "./email-webhook-sendgrid";
import { sesReports } from "./email-webhook-ses";
import { type FeedbackOutcome, recordFeedback } from "./record-feedback";
import type { FeedbackReport } from "./report";

/**
 * An e-mail provider's delivery webhook: verified as the service named by the provider's `feedback`
 * setting signs (else 401, nothing read), read into reports about the provider's project's messages (named
 * by the Message-ID Relay set, or Postmark's metadata) and recorded once each by recordFeedback. Events
 * naming no message of the project are counted as unknown.
 */
export async function recordEmailWebhook(
  ctx: AppContext,
  { providerId, request }: { providerId: string; request: WebhookRequest },
): Promise<{ recorded: number; duplicate: number; unknown: number }> {
  const [p] = z.uuid().safeParse(providerId).success
    ? await ctx.db
        .select()
        .from(messageProviders)
        .where(and(eq(messageProviders.id, providerId), eq(messageProviders.kind, "smtp")))
    : [];
  const settings = p ? feedbackSettings(p.config) : null;
  // An unknown provider and one without feedback answer as a bad signature does: nothing is revealed.
  if (!p || !settings) throw new Unauthorized("This webhook's signature does not verify.");
  const read =
    settings.kind === "sendgrid"
      ? sendgridReports(settings.public_key, request)
      : settings.kind === "mailgun"
        ? mailgunReports(settings.signing_key, request)
        : settings.kind === "postmark"
          ? postmarkReports(settings, request)
          : await sesReports(request);
  const reports: FeedbackReport[] = [];
  let unknown = 0;
  for (const { relayMessageId, ...r } of read) {
    if (relayMessageId) reports.push({ ...r, messageId: relayMessageId });
    else unknown++;
  }
  const outcomes: FeedbackOutcome[] = reports.length
    ? await recordFeedback(systemContext(ctx.db, p.projectId), { reports })
    : [];
  return {
    recorded: outcomes.filter((o) => o === "recorded").length,
    duplicate: outcomes.filter((o) => o === "duplicate").length,
    unknown: unknown + outcomes.filter((o) => o === "unknown_message").length,
  };
}
