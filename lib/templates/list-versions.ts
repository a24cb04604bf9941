import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import { authoringVersions, layouts, messageTemplates, snippets, type VersionKind } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { inProject } from "@/lib/db/in-project";
import { NotFound } from "@/lib/http/errors";
import { decodeCursor, page } from "@/lib/http/pagination";

const owners = { template: messageTemplates, layout: layouts, snippet: snippets } as const;

/** 404 unless the project has this template, layout or snippet. */
export async function assertOwner(ctx: ProjectContext, input: { kind: VersionKind; id: string }) {
  const table = owners[input.kind];
  const [row] = await ctx.db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.projectId, ctx.projectId), eq(table.id, input.id)));
  if (!row) throw new NotFound(`No ${input.kind} with this id in this project.`);
}

/** The project's versions of one template, layout or snippet (`also`: a further condition on them). */
export function versionsOf(ctx: ProjectContext, input: { kind: VersionKind; id: string; also?: SQL }): SQL {
  return inProject(
    ctx,
    authoringVersions,
    eq(authoringVersions.kind, input.kind),
    eq(authoringVersions.ownerId, input.id),
    input.also,
  );
}

/** A template's, layout's or snippet's versions, newest first, each with what was saved. */
export async function listVersions(
  ctx: ProjectContext,
  input: { kind: VersionKind; id: string; limit: number; cursor?: string },
) {
  await assertOwner(ctx, input);
  const after = decodeCursor(input.cursor, z.tuple([z.number().int()]));
  const rows = await ctx.db
    .select()
    .from(authoringVersions)
    .where(versionsOf(ctx, { ...input, also: after ? lt(authoringVersions.number, after[0]) : undefined }))
    .orderBy(desc(authoringVersions.number))
    .limit(input.limit + 1);
  const views = rows.map((v) => ({
    id: v.id,
    number: v.number,
    content: v.content,
    actor: v.actor,
    created_at: v.createdAt.toISOString(),
  }));
  return page(views, input.limit, (v) => [v.number]);
}
