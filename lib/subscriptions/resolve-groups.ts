import { and, eq, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { subscriptionGroups, type SubscriptionGroup } from "@/db/schema";
import { NotFound, type FieldError } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

const isUuid = (s: string) => z.uuid().safeParse(s).success;

/**
 * Finds the groups named by id or name (case-insensitive), in the order given. Any unknown name is a 404
 * whose `errors` point at each bad reference, and nothing is written.
 */
export async function resolveGroups(
  ctx: ProjectContext,
  { refs, pathOf }: { refs: string[]; pathOf: (i: number) => string },
): Promise<SubscriptionGroup[]> {
  const ids = refs.filter(isUuid);
  const names = refs.map((r) => r.toLowerCase());
  const rows = await ctx.db
    .select()
    .from(subscriptionGroups)
    .where(
      and(
        eq(subscriptionGroups.projectId, ctx.projectId),
        or(
          ids.length ? inArray(subscriptionGroups.id, ids) : undefined,
          inArray(sql`lower(${subscriptionGroups.name})`, names),
        ),
      ),
    );
  const errors: FieldError[] = [];
  const found = refs.map((ref, i) => {
    const g = rows.find((r) => r.id === ref) ?? rows.find((r) => r.name.toLowerCase() === ref.toLowerCase());
    if (!g) errors.push({ path: pathOf(i), message: `no subscription group "${ref}" in this project` });
    return g;
  });
  if (errors.length)
    throw new NotFound(
      `Unknown subscription group${errors.length > 1 ? "s" : ""}: ${errors.map((e) => e.message).join("; ")}.`,
      { errors },
    );
  return found as SubscriptionGroup[];
}

/** One group by id or name. */
export async function resolveGroup(
  ctx: ProjectContext,
  { ref, path = "group" }: { ref: string; path?: string },
): Promise<SubscriptionGroup> {
  const [g] = await resolveGroups(ctx, { refs: [ref], pathOf: () => path });
  return g!;
}
