import { and, eq } from "drizzle-orm";
import { messageProviders } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { toProviderView } from "./provider-view";

export async function getProvider(ctx: ProjectContext, id: string) {
  const [p] = await ctx.db
    .select()
    .from(messageProviders)
    .where(and(eq(messageProviders.projectId, ctx.projectId), eq(messageProviders.id, id)));
  if (!p) throw new NotFound("No provider with this id in this project.");
  return toProviderView(p);
}
