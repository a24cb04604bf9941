import { sql } from "drizzle-orm";
import type { VersionKind } from "@/db/schema";
import type { Actor, ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";

/**
 * Serialises the project's authoring saves (templates, layouts, snippets, the default layout) for the
 * rest of the caller's transaction: each save checks the others' current state (snippet cycles, the
 * builds of a layout's templates), which two saves at once would each miss.
 */
export async function lockAuthoring(ctx: ProjectContext): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`authoring:${ctx.projectId}`}, 0))`);
}

export function actorLabel(actor: Actor): string {
  if (actor.kind === "admin") return `admin:${actor.adminId}`;
  if (actor.kind === "api_key") return `key:${actor.keyId}`;
  return "system";
}

/** Records one save as the owner's next version (call under lockAuthoring); its id and number. */
export async function saveVersion(
  ctx: ProjectContext,
  input: { kind: VersionKind; ownerId: string; content: Record<string, unknown> },
): Promise<{ id: string; number: number }> {
  const [v] = await queryRows<{ id: string; number: number }>(
    ctx.db,
    sql`insert into authoring_versions (project_id, kind, owner_id, number, content, actor)
      select ${ctx.projectId}::uuid, ${input.kind}, ${input.ownerId}::uuid, coalesce(max(number), 0) + 1,
        ${JSON.stringify(input.content)}::jsonb, ${actorLabel(ctx.actor)}
      from authoring_versions where project_id = ${ctx.projectId}::uuid and kind = ${input.kind}
        and owner_id = ${input.ownerId}::uuid
      returning id, number`,
  );
  return v!;
}
