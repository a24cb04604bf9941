import type { z } from "zod";
import { messageProviders } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode, UNIQUE_VIOLATION } from "@/lib/db/errors";
import { Conflict } from "@/lib/http/errors";
import { seal } from "@/lib/signing/seal";
import { feedbackConfig } from "@/lib/feedback/feedback-settings";
import { assertProviderHost } from "./check-provider-host";
import { withDkim } from "./dkim";
import { forgetProviders } from "./load-provider";
import { maskedUrl, toProviderView } from "./provider-view";
import type { createProviderBody } from "./schemas";

/** Adds the project's provider for a channel (one each); its secret is sealed and never answered. */
export async function createProvider(ctx: ProjectContext, input: z.output<typeof createProviderBody>) {
  if (input.kind === "smtp") assertProviderHost(input.url, "url");
  else if (input.api_base) assertProviderHost(input.api_base, "api_base");
  const values: { config: Record<string, string>; secretSealed: string } =
    input.kind === "smtp"
      ? {
          config: { ...withDkim({ url: maskedUrl(input.url) }, input.dkim), ...feedbackConfig(input.feedback ?? null) },
          secretSealed: seal(input.url),
        }
      : {
          config: { account_sid: input.account_sid, ...(input.api_base ? { api_base: input.api_base } : {}) },
          secretSealed: seal(input.auth_token),
        };
  try {
    const [row] = await ctx.db
      .insert(messageProviders)
      .values({
        projectId: ctx.projectId,
        channel: input.channel,
        kind: input.kind,
        name: input.name,
        from: input.from,
        ratePerSecond: input.rate_per_second ?? null,
        ...values,
      })
      .returning();
    forgetProviders(ctx.projectId);
    return toProviderView(row!);
  } catch (err) {
    if (errorCode(err) === UNIQUE_VIOLATION)
      throw new Conflict(`This project has an ${input.channel} provider: change it or delete it first.`, {
        errors: [{ path: "channel", message: "one provider per channel" }],
      });
    throw err;
  }
}
