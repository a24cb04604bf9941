import type { AppContext } from "@/lib/access/context";
import { log } from "@/lib/observability/logger";
import { MAX_SMS_CHARS, TemplateError } from "@/lib/templates/liquid";
import { quietUntil } from "./quiet-hours";
import { renderMessage } from "@/lib/templates/render-message";
import { renderTurn } from "./render-turns";
import { reserveCapSlot } from "./reserve-cap-slot";
import type { FinalOutcome } from "./finish-message";
import { contactOf, decideSkip, loadSendFacts, type SendFacts, type SkipReason } from "./send-facts";
import { sendRendered } from "./send-rendered";

/** What became of one claimed message: final, due again later (quiet hours, a retry), or retried for good. */
export type Delivery =
  | (Omit<FinalOutcome, "id"> & { kind: "final" })
  | { kind: "later"; at: Date; reason: string | null; attempted: boolean };

/** Attempts before a transiently failing message fails for good (MESSAGES_MAX_ATTEMPTS). */
export const maxAttempts = () => Number(process.env.MESSAGES_MAX_ATTEMPTS ?? 8);

/**
 * Renders that ran out of time before a message fails for good (MESSAGES_TEMPLATE_ATTEMPTS): enough for
 * a busy moment to pass, few enough that a template that always runs too long stops soon.
 */
export const maxTemplateAttempts = () => Number(process.env.MESSAGES_TEMPLATE_ATTEMPTS ?? 3);

/** Backoff after the n-th failed attempt: 30 s doubling, at most an hour (MESSAGES_RETRY_BASE_MS shrinks it). */
export function retryDelayMs(n: number): number {
  const base = Number(process.env.MESSAGES_RETRY_BASE_MS ?? 30_000);
  return Math.min(base * 2 ** Math.max(0, n - 1), 3_600_000);
}

/**
 * The sending rules on facts read now, for a message that waited in a throttle: its cap slot is already
 * taken (so the cap is not counted again); a message whose user or template is gone is not sent.
 */
async function recheckSkip(ctx: AppContext, f: SendFacts): Promise<SkipReason | null> {
  const [now] = await loadSendFacts(ctx, { keys: [{ projectId: f.project_id, id: f.id }] });
  if (!now) return "cancelled";
  return decideSkip({ ...now, frequency_cap: null });
}

/**
 * Decides and sends one claimed message: the rules again at send time (a user may have unsubscribed since
 * it was queued), quiet hours, rendering, the throttles, then the provider. Never throws.
 */
export async function deliver(
  ctx: AppContext,
  { facts: f, origin }: { facts: SendFacts; origin: string },
): Promise<Delivery> {
  const skip = decideSkip(f);
  if (skip) return { kind: "final", state: "skipped", reason: skip };
  if (!f.transactional && f.quiet_hours) {
    const until = quietUntil(new Date(), f.timezone, f.quiet_hours);
    if (until) return { kind: "later", at: until, reason: "quiet_hours", attempted: false };
  }
  const to = contactOf(f)!;
  await renderTurn();
  let rendered: ReturnType<typeof renderMessage>;
  try {
    rendered = renderMessage(f, origin, { send: true });
  } catch (err) {
    const where = err instanceof TemplateError && err.line !== null ? ` (line ${err.line}, column ${err.column})` : "";
    const reason = `template: ${(err as Error).message}${where}`;
    // Counted as an attempt, so the bound holds across workers and restarts.
    if (err instanceof TemplateError && err.timedOut) {
      const attempt = f.attempts + 1;
      if (attempt < maxTemplateAttempts())
        return {
          kind: "later",
          at: new Date(Date.now() + retryDelayMs(attempt)),
          reason: `${reason}; retrying (attempt ${attempt} of ${maxTemplateAttempts()})`,
          attempted: true,
        };
      return {
        kind: "final",
        state: "failed",
        reason: `${reason} on each of ${attempt} attempts: the template takes too long to render`,
        recipient: to,
        attempted: true,
      };
    }
    return { kind: "final", state: "failed", reason, recipient: to };
  }
  if (f.channel === "sms" && rendered.text.length > MAX_SMS_CHARS)
    return {
      kind: "final",
      state: "failed",
      reason: `sms body of ${rendered.text.length} characters is longer than ${MAX_SMS_CHARS}`,
      recipient: to,
    };
  // The cap was read when the message was claimed; the slot is taken now, under a lock, so two sends to
  // one user at once cannot both pass it.
  if (!f.transactional && f.frequency_cap?.[f.channel] && !f.cap_reserved) {
    const reserved = await reserveCapSlot(ctx, {
      projectId: f.project_id,
      id: f.id,
      userId: f.user_id,
      channel: f.channel,
    }).catch((err: unknown) => {
      log.error({ err, message: f.id }, "taking a frequency-cap slot failed; the message is due again after a backoff");
      return null;
    });
    if (reserved === null)
      return {
        kind: "later",
        at: new Date(Date.now() + retryDelayMs(1)),
        reason: "cap check failed",
        attempted: false,
      };
    if (!reserved) return { kind: "final", state: "skipped", reason: "frequency_cap" };
  }
  const shown = { recipient: to, subject: f.channel === "email" ? rendered.subject : null, locale: rendered.locale };
  let sent: Awaited<ReturnType<typeof sendRendered>>;
  try {
    sent = await sendRendered(ctx, { ...f, to, origin, rendered, recheck: () => recheckSkip(ctx, f) });
  } catch (err) {
    return { kind: "later", at: new Date(Date.now() + retryDelayMs(1)), reason: String(err), attempted: false };
  }
  const { provider, result } = sent;
  if ("cancelled" in result) return { kind: "final", state: "skipped", reason: sent.skipped ?? "cancelled" };
  const providerId = provider?.id ?? null;
  if (result.ok)
    return {
      kind: "final",
      state: "sent",
      reason: null,
      ...shown,
      providerId,
      providerMessageId: result.providerMessageId,
      attempted: true,
    };
  if (result.transient && f.attempts + 1 < maxAttempts())
    return {
      kind: "later",
      at: new Date(Date.now() + retryDelayMs(f.attempts + 1)),
      reason: result.reason,
      attempted: true,
    };
  return { kind: "final", state: "failed", reason: result.reason, ...shown, providerId, attempted: true };
}
