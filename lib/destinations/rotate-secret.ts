import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { seal } from "@/lib/signing/seal";
import { newSecret } from "./sign";

/** How long the previous secret keeps signing after a rotation (Standard Webhooks: both signatures sent). */
export const ROTATION_OVERLAP_HOURS = 24;

/**
 * Makes a new signing secret, returned this once; the current one becomes the previous and signs too for
 * 24 h. Rotating again within the overlap replaces the previous with the current (the oldest stops).
 */
export async function rotateSecret(ctx: ProjectContext, id: string) {
  const secret = newSecret();
  const [row] = await ctx.db.execute<{ until: string }>(sql`
    update destinations set previous_secret_sealed = secret_sealed, secret_sealed = ${seal(secret)},
      previous_secret_until = now() + make_interval(hours => ${ROTATION_OVERLAP_HOURS}), updated_at = now()
    where project_id = ${ctx.projectId}::uuid and id = ${id}::uuid
    returning previous_secret_until::text as until`);
  if (!row) throw new NotFound("No destination with this id in this project.");
  return { secret, previous_secret_until: new Date(row.until).toISOString() };
}
