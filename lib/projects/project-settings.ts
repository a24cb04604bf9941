import { and, eq, sql } from "drizzle-orm";
import { layouts, projects } from "@/db/schema";
import { withTransaction } from "@/lib/db/transaction";
import { Invalid, NotFound } from "@/lib/http/errors";
import { listsBeyond } from "@/lib/lists/retention-window";
import type { ProjectContext } from "@/lib/access/context";
import { documentQuota } from "@/lib/documents/quota";
import { rebuildTemplates } from "@/lib/templates/rebuild-templates";
import { lockAuthoring } from "@/lib/templates/save-version";
import type { ProjectSettings, ProjectSettingsPatch } from "./settings-schemas";

function toView(p: typeof projects.$inferSelect): ProjectSettings {
  return {
    id: p.id,
    name: p.name,
    event_retention_days: p.eventRetentionDays,
    frequency_cap: p.frequencyCap,
    quiet_hours: p.quietHours,
    bounce_policy: p.bouncePolicy,
    default_layout_id: p.defaultLayoutId,
    document_quota_bytes: documentQuota(p.documentQuotaBytes),
    created_at: p.createdAt.toISOString(),
  };
}

/** Sets the default layout (one of the project's) and builds every template without a layout of its own again. */
async function setDefaultLayout(ctx: ProjectContext, id: string | null) {
  await lockAuthoring(ctx);
  if (id) {
    const [l] = await ctx.db
      .select({ id: layouts.id })
      .from(layouts)
      .where(and(eq(layouts.projectId, ctx.projectId), eq(layouts.id, id)));
    if (!l)
      throw new Invalid("No layout with this id in this project.", {
        errors: [{ path: "default_layout_id", message: "no such layout" }],
      });
  }
  const [p] = await ctx.db
    .update(projects)
    .set({ defaultLayoutId: id })
    .where(eq(projects.id, ctx.projectId))
    .returning();
  await rebuildTemplates(ctx, { defaultChanged: true });
  return p!;
}

/** The project's settings: its name and how long its events are kept. */
export async function getProjectSettings(ctx: ProjectContext): Promise<ProjectSettings> {
  const [p] = await ctx.db.select().from(projects).where(eq(projects.id, ctx.projectId));
  if (!p) throw new NotFound("No such project.");
  return toView(p);
}

/**
 * Renames the project or sets its event retention. A retention shorter than a dynamic list's window is
 * refused, naming the lists (their rules would look back past what is kept). The purge itself runs in
 * the worker (lib/events/retention.ts) within RETENTION_INTERVAL.
 */
export async function updateProjectSettings(
  ctx: ProjectContext,
  patch: ProjectSettingsPatch,
): Promise<ProjectSettings> {
  return withTransaction(ctx.db, async (tx) => {
    const days = patch.event_retention_days;
    if (days != null) {
      const beyond = await listsBeyond({ ...ctx, db: tx }, days);
      if (beyond.length)
        throw new Invalid(
          `Dynamic lists look back further than ${days} days: ${beyond
            .slice(0, 5)
            .map((l) => `"${l.name}" (${l.window} days)`)
            .join(
              ", ",
            )}${beyond.length > 5 ? ` and ${beyond.length - 5} more` : ""}. Shorten their within_days first, or keep a longer retention.`,
          {
            errors: [{ path: "event_retention_days", message: `at least ${Math.max(...beyond.map((l) => l.window))}` }],
          },
        );
    }
    const [p] = await tx
      .update(projects)
      .set({
        ...(patch.name ? { name: patch.name } : {}),
        ...(days !== undefined ? { eventRetentionDays: days } : {}),
        ...(patch.frequency_cap !== undefined ? { frequencyCap: patch.frequency_cap } : {}),
        ...(patch.quiet_hours !== undefined ? { quietHours: patch.quiet_hours } : {}),
        ...(patch.bounce_policy !== undefined ? { bouncePolicy: patch.bounce_policy } : {}),
        ...(patch.document_quota_bytes !== undefined ? { documentQuotaBytes: patch.document_quota_bytes } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(projects.id, ctx.projectId))
      .returning();
    if (!p) throw new NotFound("No such project.");
    if (patch.default_layout_id !== undefined)
      return toView(await setDefaultLayout({ ...ctx, db: tx }, patch.default_layout_id));
    return toView(p);
  });
}
