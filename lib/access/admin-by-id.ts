import { eq } from "drizzle-orm";
import type { AppContext } from "./context";
import { admins, type Admin } from "@/db/schema";

export async function adminById(ctx: AppContext, id: string): Promise<Admin | null> {
  const [row] = await ctx.db.select().from(admins).where(eq(admins.id, id)).limit(1);
  return row ?? null;
}
