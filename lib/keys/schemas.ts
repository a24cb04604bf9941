import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { roleSchema } from "@/lib/members/schemas";

export const createKeyBody = z
  .object({ name: z.string().trim().min(1).max(100), role: roleSchema })
  .strict()
  .meta({ id: "CreateApiKey" });

export const keyOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    role: roleSchema,
    prefix: z.string().meta({ description: "The visible start of the secret." }),
    created_by: z.string().nullable().meta({ description: "The creator's e-mail, when a console admin made it." }),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });

export const createdKeyOutput = keyOutput.extend({ secret: z.string().meta({ description: "Shown once; only its SHA-256 is stored." }) }).meta({ id: "CreatedApiKey" });

export const listKeysQuery = paginationQuery.meta({ id: "ListApiKeysQuery" });

export type KeyView = z.infer<typeof keyOutput>;
