import { and, desc, eq, isNull, lt } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { admins, apiKeys } from "@/db/schema";
import { decodeCursor, page } from "@/lib/http/pagination";
import type { listKeysQuery } from "./schemas";
import { toKeyView } from "./view";

/** The project's live API keys, newest first; never a secret or its hash. */
export async function listKeys(ctx: ProjectContext, q: z.output<typeof listKeysQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const where = [eq(apiKeys.projectId, ctx.projectId), isNull(apiKeys.revokedAt)];
  if (after) where.push(lt(apiKeys.id, after[0]));
  const rows = await ctx.db
    .select({ key: apiKeys, creator: admins.email })
    .from(apiKeys)
    .leftJoin(admins, eq(admins.id, apiKeys.createdBy))
    .where(and(...where))
    .orderBy(desc(apiKeys.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.key.id]);
  return { data: data.map((r) => toKeyView(r.key, r.creator)), next_cursor };
}
