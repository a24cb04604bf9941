import { z } from "zod";
import { paginationQuery } from "@/lib/http/pagination";
import { roleSchema } from "@/lib/members/schemas";
import { EXPIRES_IN_PATTERN } from "./expires-in";

export const createInviteBody = z
  .object({
    email: z.email().max(320),
    role: roleSchema,
    expires_in: z
      .string()
      .regex(EXPIRES_IN_PATTERN, "use a duration like 90m, 24h or 7d")
      .optional()
      .meta({ description: "Lifetime like `90m`, `24h`, `7d`; default 48h, at most 30 days." }),
  })
  .strict()
  .meta({ id: "CreateInvite" });

export const inviteState = z.enum(["pending", "accepted", "revoked", "expired"]);

export const inviteOutput = z
  .object({
    id: z.uuid(),
    project_id: z.uuid(),
    email: z.string(),
    role: roleSchema,
    state: inviteState,
    invited_by: z.string().nullable().meta({ description: "The inviter's e-mail." }),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Invite" });

export const myInviteOutput = inviteOutput
  .extend({ project_name: z.string(), org_name: z.string() })
  .meta({ id: "MyInvite" });

export const listInvitesQuery = paginationQuery.meta({ id: "ListInvitesQuery" });

export type InviteView = z.infer<typeof inviteOutput>;
