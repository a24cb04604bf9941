import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { messageProviders } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid, NotFound } from "@/lib/http/errors";
import { seal } from "@/lib/signing/seal";
import { feedbackConfig } from "@/lib/feedback/feedback-settings";
import { assertProviderHost } from "./check-provider-host";
import { withDkim } from "./dkim";
import { forgetProviders } from "./load-provider";
import { closeProviderPool } from "./smtp-pool";
import { maskedUrl, toProviderView } from "./provider-view";
import type { updateProviderBody } from "./schemas";

/** Changes a provider; a new URL or auth token is sealed again. Fields of the other kind are a 400. */
export async function updateProvider(
  ctx: ProjectContext,
  { id, patch }: { id: string; patch: z.output<typeof updateProviderBody> },
) {
  const where = and(eq(messageProviders.projectId, ctx.projectId), eq(messageProviders.id, id));
  const [p] = await ctx.db.select().from(messageProviders).where(where);
  if (!p) throw new NotFound("No provider with this id in this project.");
  const foreign = (p.kind === "smtp" ? ["account_sid", "auth_token", "api_base"] : ["url", "dkim", "feedback"]).filter(
    (k) => k in patch,
  );
  if (foreign.length)
    throw new Invalid(`A ${p.kind} provider has no ${foreign.join(", ")}.`, {
      errors: foreign.map((path) => ({ path, message: `not a field of a ${p.kind} provider` })),
    });
  if (patch.url) assertProviderHost(patch.url, "url");
  if (patch.api_base) assertProviderHost(patch.api_base, "api_base");
  const config = withDkim({ ...p.config }, patch.dkim);
  if (patch.url) config.url = maskedUrl(patch.url);
  if (patch.account_sid) config.account_sid = patch.account_sid;
  if (patch.api_base) config.api_base = patch.api_base;
  if (patch.feedback !== undefined) {
    delete config.feedback;
    delete config.feedback_sealed;
    Object.assign(config, feedbackConfig(patch.feedback));
  }
  const secret = patch.url ?? patch.auth_token;
  const [row] = await ctx.db
    .update(messageProviders)
    .set({
      name: patch.name ?? p.name,
      from: patch.from ?? p.from,
      config,
      ...(secret ? { secretSealed: seal(secret) } : {}),
      ...(patch.rate_per_second !== undefined ? { ratePerSecond: patch.rate_per_second } : {}),
      updatedAt: sql`now()`,
    })
    .where(where)
    .returning();
  forgetProviders(ctx.projectId);
  // Its connections were made with the old URL and key: this process's pool goes now, another
  // process's when it next loads the provider and sees the new version.
  closeProviderPool(id);
  return toProviderView(row!);
}
