import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { roleSchema } from "@/lib/members/schemas";
import { isOrigin, MAX_ORIGIN_LENGTH } from "@/lib/http/cors";

/** Bounds of a key's budget: high enough for any real client, low enough to stay a limit. */
export const MAX_RATE_PER_SECOND = 10_000;
export const MAX_BURST = 100_000;
export const DEFAULT_RATE_PER_SECOND = 100;
export const DEFAULT_BURST = 500;

const ratePerSecond = z
  .number()
  .int()
  .min(1)
  .max(MAX_RATE_PER_SECOND)
  .meta({ description: "Sustained requests per second." });
const burst = z
  .number()
  .int()
  .min(1)
  .max(MAX_BURST)
  .meta({ description: "Requests allowed at once; at least `rate_limit_per_second`." });

export const MAX_ALLOWED_ORIGINS = 20;
export const ONLY_CLIENT = "only a key of role client may have allowed origins";

/**
 * The origins a browser may call with the key. Setting it (role `client` only) makes a browser key:
 * limited to `POST /users` and `POST /users/events`, answers without stored data. `null` removes it.
 */
const allowedOrigins = z
  .array(
    z
      .string()
      .max(MAX_ORIGIN_LENGTH)
      .refine(
        isOrigin,
        "must be an origin exactly as a browser sends it, like https://shop.example.com (http or https, no path, no trailing slash)",
      ),
  )
  .min(1, "list at least one origin, or send null to remove the setting")
  .max(MAX_ALLOWED_ORIGINS, `at most ${MAX_ALLOWED_ORIGINS} origins`)
  .transform((list) => [...new Set(list)])
  .nullable()
  .meta({
    description: `Exact origins (at most ${MAX_ALLOWED_ORIGINS}, e.g. \`https://shop.example.com\`) a web page may call with this key; only for role \`client\`. It makes a browser key: only \`POST /users\` and \`POST /users/events\`, answered without stored data. \`null\`: a server key, which refuses every request carrying an \`Origin\` header.`,
  });

export const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    role: roleSchema,
    rate_limit_per_second: ratePerSecond.default(DEFAULT_RATE_PER_SECOND),
    rate_limit_burst: burst.optional(),
    allowed_origins: allowedOrigins.optional(),
  })
  .strict()
  .refine((b) => b.rate_limit_burst === undefined || b.rate_limit_burst >= b.rate_limit_per_second, {
    path: ["rate_limit_burst"],
    message: "The burst must be at least rate_limit_per_second.",
  })
  .refine((b) => !b.allowed_origins || b.role === "client", { path: ["allowed_origins"], message: ONLY_CLIENT })
  .meta({
    id: "CreateApiKey",
    description: `Without \`rate_limit_burst\`, the burst is ${DEFAULT_BURST} or the rate, whichever is higher.`,
  });

/** The budget (both numbers together) and/or the allowed origins; what is omitted is kept. */
export const changeKeyBody = z
  .object({
    rate_limit_per_second: ratePerSecond.optional(),
    rate_limit_burst: burst.optional(),
    allowed_origins: allowedOrigins.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    const rate = b.rate_limit_per_second !== undefined;
    if (rate !== (b.rate_limit_burst !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [rate ? "rate_limit_burst" : "rate_limit_per_second"],
        message: "send rate_limit_per_second and rate_limit_burst together",
      });
    } else if (rate && b.rate_limit_burst! < b.rate_limit_per_second!) {
      ctx.addIssue({
        code: "custom",
        path: ["rate_limit_burst"],
        message: "The burst must be at least rate_limit_per_second.",
      });
    } else if (!rate && b.allowed_origins === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "send the rate limit (rate_limit_per_second and rate_limit_burst), allowed_origins, or both",
      });
    }
  })
  .meta({ id: "ChangeApiKey" });

export const keyOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: roleSchema,
    prefix: z.string().meta({ description: "The visible start of the secret." }),
    created_by: z.string().nullable().meta({ description: "The creator's e-mail, when a console admin made it." }),
    rate_limit_per_second: z.number().int(),
    rate_limit_burst: z.number().int(),
    allowed_origins: z
      .array(z.string())
      .nullable()
      .meta({ description: "Origins a web page may call with this browser key; null for a server key." }),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });

export const createdKeyOutput = keyOutput
  .extend({ secret: z.string().meta({ description: "Shown once; only its SHA-256 is stored." }) })
  .meta({ id: "CreatedApiKey" });

export const listKeysQuery = paginationQuery.meta({ id: "ListApiKeysQuery" });

export type KeyView = z.infer<typeof keyOutput>;
