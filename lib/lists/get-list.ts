import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { lists, type List } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ListView } from "./schemas";
import { toListViews } from "./view";

export async function findList(db: DbOrTx, projectId: string, id: string, lock = false): Promise<List> {
  const q = db.select().from(lists).where(and(eq(lists.projectId, projectId), eq(lists.id, id)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new NotFound("No list with this id in this project.");
  return row;
}

export async function getList(db: DbOrTx, projectId: string, id: string): Promise<ListView> {
  return (await toListViews(db, projectId, [await findList(db, projectId, id)]))[0]!;
}
