import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { loadUserSubscriptions } from "./load-user-subscriptions";

export async function getUserSubscriptions(db: DbOrTx, projectId: string, userId: string) {
  const [user] = await db.select({ id: users.id }).from(users).where(and(eq(users.projectId, projectId), eq(users.id, userId)));
  if (!user) throw new NotFound("No user with this id in this project.");
  return { user_id: user.id, subscriptions: await loadUserSubscriptions(db, projectId, user.id) };
}
