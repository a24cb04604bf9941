import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { subscriptionGroups, users } from "@/db/schema";
import { Forbidden } from "@/lib/http/errors";
import { unseal } from "@/lib/signing/seal";
import { applyChanges } from "./apply-changes";
import { lockUser } from "./lock-user";
import { setChannelOptOut } from "./channel-opt-out";
import { loadSettings } from "./settings";
import { classifySms } from "./sms-keywords";
import { isSignedByTwilio, type TwilioRequest } from "./twilio-signature";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Twilio's inbound-message webhook. The signature must verify with the project's auth token (else 403,
 * nothing read); a whole-message opt-out keyword unsubscribes every user of the project with that phone
 * from SMS (the channel and each SMS group), START/UNSTOP resubscribes. Anything else changes nothing.
 */
export async function handleInboundSms(ctx: ProjectContext, sms: TwilioRequest) {
  const projectOk = z.uuid().safeParse(ctx.projectId).success;
  const { twilioAuthToken: sealed } = projectOk ? await loadSettings(ctx) : { twilioAuthToken: null };
  // Unknown project and unconfigured project answer alike, so the endpoint reveals nothing.
  if (!sealed) throw new Forbidden("This project has no Twilio auth token configured.");
  const twilioAuthToken = unseal(sealed);
  if (!twilioAuthToken)
    throw new Forbidden("The stored Twilio auth token cannot be read (the server secret changed?): set it again.");
  if (!isSignedByTwilio(twilioAuthToken, sms)) throw new Forbidden("The X-Twilio-Signature header does not match.");
  const get = (k: string) => sms.params.find(([name]) => name === k)?.[1] ?? "";
  const action = classifySms(get("Body"));
  const from = get("From");
  if (!action || !from) return { action: "none" as const, users: 0 };
  const detail = { message_sid: get("MessageSid") || null, from };
  const optOut = action === "opt_out";
  return inRetryingTransaction(ctx.db, async (tx) => {
    const matched = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.projectId, ctx.projectId), eq(users.phone, from)))
      .orderBy(users.id);
    const groups = await tx
      .select()
      .from(subscriptionGroups)
      .where(and(eq(subscriptionGroups.projectId, ctx.projectId), eq(subscriptionGroups.channel, "sms")));
    for (const u of matched) {
      await lockUser({ ...ctx, db: tx }, u.id);
      await setChannelOptOut(
        { ...ctx, db: tx },
        { userId: u.id, channel: "sms", optedOut: optOut, source: "sms", detail },
      );
      await applyChanges(
        { ...ctx, db: tx },
        {
          userId: u.id,
          changes: groups.map((group) => ({ group, state: optOut ? "unsubscribed" : "subscribed" })),
          source: "sms",
          detail,
        },
      );
    }
    return { action, users: matched.length };
  });
}
