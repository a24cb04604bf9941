import { and, asc, eq, gt } from "drizzle-orm";
import type { z } from "zod";
import { z as zod } from "zod";
import { messageTemplates } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import { hasTag } from "@/lib/http/tags";
import type { listTemplatesQuery } from "./schemas";
import { templateRows, toTemplateView } from "./template-view";

/** The project's templates in creation order, a page at a time. */
export async function listTemplates(ctx: ProjectContext, q: z.output<typeof listTemplatesQuery>) {
  const after = decodeCursor(q.cursor, zod.tuple([zod.uuid()]));
  const rows = await templateRows(
    ctx,
    and(
      q.channel ? eq(messageTemplates.channel, q.channel) : undefined,
      hasTag(messageTemplates.tags, q.tag),
      after ? gt(messageTemplates.id, after[0]) : undefined,
    ),
  )
    .orderBy(asc(messageTemplates.id))
    .limit(q.limit + 1);
  const views = rows.map((r) => toTemplateView(r.t, r.g?.id ? r.g : null, r.version));
  return page(views, q.limit, (v) => [v.id]);
}
