import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { admins, type Admin } from "@/db/schema";

export async function adminById(db: DbOrTx, id: string): Promise<Admin | null> {
  const [row] = await db.select().from(admins).where(eq(admins.id, id)).limit(1);
  return row ?? null;
}
