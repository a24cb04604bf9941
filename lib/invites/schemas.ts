import { z } from "zod";
import { emailAddress } from "@/lib/http/email-address";
import { paginationQuery } from "@/lib/http/pagination";
import { roleSchema } from "@/lib/members/schemas";
import { EXPIRES_IN_PATTERN } from "./expires-in";

export const createInviteBody = z
  .object({
    email: emailAddress,
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

export const mailDeliveryState = z.enum(["queued", "sent", "failed"]);

const inviteFields = z.object({
  id: z.uuid(),
  project_id: z.uuid(),
  email: z.string(),
  role: roleSchema,
  state: inviteState,
  invited_by: z.string().nullable().meta({ description: "The inviter's e-mail." }),
  expires_at: z.iso.datetime(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const inviteOutput = inviteFields
  .extend({
    delivery: mailDeliveryState.meta({
      description:
        "The invitation mail: `queued` (waiting, or retrying after a failed attempt: see `delivery_error`), `sent` (accepted by the SMTP server), `failed` (retried with backoff for over 24 hours, then given up; `POST …/invites/{id}/resend` tries again).",
    }),
    delivery_attempts: z
      .number()
      .int()
      .meta({ description: "Attempts made for the current mail (a resend starts again at 0)." }),
    delivery_error: z
      .string()
      .nullable()
      .meta({ description: "The last attempt's error, while queued or failed; null once sent." }),
    delivered_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Invite" });

export const myInviteOutput = inviteFields
  .extend({ project_name: z.string(), org_name: z.string() })
  .meta({ id: "MyInvite" });

export const listInvitesQuery = paginationQuery.meta({ id: "ListInvitesQuery" });

export type InviteView = z.infer<typeof inviteOutput>;
export type InviteFieldsView = z.infer<typeof inviteFields>;
