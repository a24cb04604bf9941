import { z } from "zod";
import { dataObject, text } from "@/lib/http/json-value";
import { identifierList, identifierOutput } from "@/lib/identity/schemas";
import { MAX_BATCH } from "@/lib/users/schemas";

export const organizationInput = z
  .strictObject({
    identifier: identifierList,
    name: text().nullable().optional(),
    data: dataObject().optional(),
  })
  .meta({ id: "OrganizationInput" });
export type OrganizationInput = z.output<typeof organizationInput>;

export const organizationBatchInput = z
  .array(organizationInput)
  .min(1)
  .max(MAX_BATCH)
  .meta({ id: "OrganizationBatchInput" });

const identified = z.strictObject({ identifier: identifierList });

export const membershipInput = z
  .strictObject({ organization: identified, user: identified, data: dataObject().optional() })
  .meta({ id: "MembershipInput" });
export type MembershipInput = z.output<typeof membershipInput>;

export const membershipBatchInput = z.array(membershipInput).min(1).max(MAX_BATCH).meta({ id: "MembershipBatchInput" });

export const membershipRemoveInput = z
  .strictObject({ organization: identified, user: identified })
  .meta({ id: "MembershipRemoveInput" });

export const organizationOutput = z
  .object({
    id: z.uuid(),
    identifier: z.array(identifierOutput),
    name: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Organization" });
export type OrganizationView = z.infer<typeof organizationOutput>;

export const membershipOutput = z
  .object({
    organization_id: z.uuid(),
    user_id: z.uuid(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Membership" });

/**
 * DELETE of an organization (client and admin) erases it and everything recorded against it alone, as
 * deleting a user does; `keep_events=true` keeps those events as history (their organization id then
 * names nothing). Events recorded against members stay with the members either way.
 */
export const deleteOrganizationParams = z.object({
  keep_events: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "`true` keeps the organization's own events as history (default `false`: erased)." }),
});
export const deleteOrganizationQuery = deleteOrganizationParams.transform((q) => ({
  keepEvents: q.keep_events === "true",
}));
export type DeleteOrganizationOptions = z.output<typeof deleteOrganizationQuery>;
