import { perSecond, type RateSpec } from "@/lib/http/rate-limit";

/**
 * A provider webhook's budget per provider (or per project for Twilio), besides the caller address's
 * anonymous one: services post in bursts, so the burst is large. `RATE_LIMIT_WEBHOOK` (`RATE:BURST`)
 * changes it.
 */
export function webhookBudget(): RateSpec {
  const m = /^(\d+):(\d+)$/.exec(process.env.RATE_LIMIT_WEBHOOK?.trim() ?? "");
  return m ? perSecond(Number(m[1]), Number(m[2])) : perSecond(500, 5000);
}
