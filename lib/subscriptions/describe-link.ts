import { and, eq } from "drizzle-orm";
import { projects, users } from "@/db/schema";
import { loadUserSubscriptions } from "./load-user-subscriptions";
import { maskEmail, maskPhone } from "./mask-contact";
import { preferencesPath, preferencesToken, readPreferencesToken, readUnsubscribeToken } from "./tokens";
import { type AppContext, systemContext } from "@/lib/access/context";

/**
 * What the public pages show for a signed token: the project's name, the person's masked contact and
 * their groups. Null for a bad token or a user that no longer exists, so the page says "not valid".
 */
export async function describeLink(
  ctx: AppContext,
  { kind, token }: { kind: "unsubscribe" | "preferences"; token: string },
) {
  const claim = kind === "unsubscribe" ? readUnsubscribeToken(token) : readPreferencesToken(token);
  if (!claim) return null;
  const [row] = await ctx.db
    .select({ project: projects.name, email: users.email, phone: users.phone })
    .from(users)
    .innerJoin(projects, eq(projects.id, users.projectId))
    .where(and(eq(users.projectId, claim.projectId), eq(users.id, claim.userId)));
  if (!row) return null;
  const subscriptions = await loadUserSubscriptions(systemContext(ctx.db, claim.projectId), claim.userId);
  const group = "groupId" in claim ? (subscriptions.find((s) => s.group_id === claim.groupId) ?? null) : null;
  if ("groupId" in claim && !group) return null;
  return {
    project: row.project,
    email: maskEmail(row.email),
    phone: maskPhone(row.phone),
    subscriptions,
    group,
    preferencesPath: preferencesPath(preferencesToken(claim)),
  };
}
