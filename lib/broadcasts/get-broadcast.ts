import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { broadcastViews } from "./broadcast-view";

/** One broadcast with its counts; 404 when the project has none with this id. */
export async function getBroadcast(ctx: ProjectContext, id: string) {
  const [view] = await broadcastViews(ctx, { where: sql`b.id = ${id}::uuid`, limit: 1 });
  if (!view) throw new NotFound("No broadcast with this id in this project.");
  return view;
}
