import { and, gt, isNull, sql } from "drizzle-orm";
import type { AppContext } from "./context";
import { admins, projectInvites } from "@/db/schema";

export type RegistrationMode = "open" | "invite_only";

/** `REGISTRATION=open | invite_only`; invite_only unless configured otherwise in production. */
export function registrationMode(): RegistrationMode {
  const v = process.env.REGISTRATION;
  if (v === "open" || v === "invite_only") return v;
  return process.env.NODE_ENV === "production" ? "invite_only" : "open";
}

/**
 * May this address sign in? Existing admins always may. A new address may register when registration is
 * open, or under invite_only when a pending (unrevoked, unaccepted, unexpired) invitation names it.
 */
export async function maySignIn(ctx: AppContext, email: string): Promise<boolean> {
  const [existing] = await ctx.db
    .select({ id: admins.id })
    .from(admins)
    .where(sql`lower(${admins.email}) = lower(${email})`)
    .limit(1);
  if (existing) return true;
  if (registrationMode() === "open") return true;
  const [invite] = await ctx.db
    .select({ id: projectInvites.id })
    .from(projectInvites)
    .where(
      and(
        sql`lower(${projectInvites.email}) = lower(${email})`,
        isNull(projectInvites.acceptedAt),
        isNull(projectInvites.revokedAt),
        gt(projectInvites.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return Boolean(invite);
}
