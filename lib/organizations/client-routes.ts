import type { z } from "zod";
import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import type { identifyInput } from "@/lib/users/schemas";
import { addMembersBatch } from "./add-members-batch";
import { deleteOrganization } from "./delete-organization";
import { addMember, removeMember } from "./memberships";
import {
  deleteOrganizationQuery,
  membershipBatchInput,
  membershipInput,
  membershipRemoveInput,
  organizationBatchInput,
  type OrganizationInput,
} from "./schemas";
import { upsertOrganization, upsertOrganizations } from "./upsert-organization";

/*
 * The organizations routes of the client API, each built once for its two paths:
 * `/api/client/projects/{projectID}/…` and `/api/client/…` (the project taken from the API key: what the
 * Lunogram SDKs call). Where the Lunogram Python SDK sends response-only fields, the key path passes the
 * bodies of lib/lunogram/shapes.ts, which tolerate them.
 */

/** `POST` and `DELETE …/organizations`. */
export function organizationsRoutes(bodies: {
  organization: z.ZodType<OrganizationInput>;
  identify: z.ZodType<z.output<typeof identifyInput>>;
}) {
  return {
    POST: withProject("organizations.write", async (req, ctx) => {
      const input = await readJson(req, bodies.organization);
      const { organization, created } = await upsertOrganization(ctx, input);
      return json(organization, created ? 201 : 200);
    }),
    DELETE: withProject("organizations.write", async (req, ctx) => {
      const { identifier } = await readJson(req, bodies.identify);
      await deleteOrganization(ctx, { identifier, opts: readQuery(req, deleteOrganizationQuery) });
      return noContent();
    }),
  };
}

/** `POST …/organizations/batch`. */
export function organizationBatchRoutes() {
  return {
    POST: withProject("organizations.write", async (req, ctx) => {
      const inputs = await readJson(req, organizationBatchInput);
      const { organizations, created } = await upsertOrganizations(ctx, inputs);
      return json({ data: organizations, created, updated: organizations.length - created });
    }),
  };
}

/** `POST` and `DELETE …/organizations/users`: a user's membership of an organization. */
export function membershipRoutes() {
  return {
    POST: withProject("organizations.write", async (req, ctx) => {
      const input = await readJson(req, membershipInput);
      const { membership, created } = await addMember(ctx, input);
      return json(membership, created ? 201 : 200);
    }),
    DELETE: withProject("organizations.write", async (req, ctx) => {
      const input = await readJson(req, membershipRemoveInput);
      await removeMember(ctx, { org: input.organization.identifier, user: input.user.identifier });
      return noContent();
    }),
  };
}

/** `POST …/organizations/users/batch`. */
export function membershipBatchRoutes() {
  return {
    POST: withProject("organizations.write", async (req, ctx) => {
      const inputs = await readJson(req, membershipBatchInput);
      const { memberships, created } = await addMembersBatch(ctx, inputs);
      return json({ data: memberships, created, updated: memberships.length - created });
    }),
  };
}
