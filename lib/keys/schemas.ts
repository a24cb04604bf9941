import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { roleSchema } from "@/lib/members/schemas";

/** Bounds of a key's budget: high enough for any real client, low enough to stay a limit. */
export const MAX_RATE_PER_SECOND = 10_000;
export const MAX_BURST = 100_000;
export const DEFAULT_RATE_PER_SECOND = 100;
export const DEFAULT_BURST = 500;

const ratePerSecond = z.number().int().min(1).max(MAX_RATE_PER_SECOND).meta({ description: "Sustained requests per second." });
const burst = z.number().int().min(1).max(MAX_BURST).meta({ description: "Requests allowed at once; at least `rate_limit_per_second`." });

export const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    role: roleSchema,
    rate_limit_per_second: ratePerSecond.default(DEFAULT_RATE_PER_SECOND),
    rate_limit_burst: burst.optional(),
  })
  .strict()
  .refine((b) => b.rate_limit_burst === undefined || b.rate_limit_burst >= b.rate_limit_per_second, {
    path: ["rate_limit_burst"],
    message: "The burst must be at least rate_limit_per_second.",
  })
  .meta({ id: "CreateApiKey", description: `Without \`rate_limit_burst\`, the burst is ${DEFAULT_BURST} or the rate, whichever is higher.` });

export const changeKeyLimitsBody = z
  .object({ rate_limit_per_second: ratePerSecond, rate_limit_burst: burst })
  .strict()
  .refine((b) => b.rate_limit_burst >= b.rate_limit_per_second, { path: ["rate_limit_burst"], message: "The burst must be at least rate_limit_per_second." })
  .meta({ id: "ChangeApiKeyLimits" });

export const keyOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: roleSchema,
    prefix: z.string().meta({ description: "The visible start of the secret." }),
    created_by: z.string().nullable().meta({ description: "The creator's e-mail, when a console admin made it." }),
    rate_limit_per_second: z.number().int(),
    rate_limit_burst: z.number().int(),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });

export const createdKeyOutput = keyOutput.extend({ secret: z.string().meta({ description: "Shown once; only its SHA-256 is stored." }) }).meta({ id: "CreatedApiKey" });

export const listKeysQuery = paginationQuery.meta({ id: "ListApiKeysQuery" });

export type KeyView = z.infer<typeof keyOutput>;
