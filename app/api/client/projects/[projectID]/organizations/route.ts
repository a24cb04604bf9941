import { json, noContent, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { deleteOrganization } from "@/lib/organizations/delete-organization";
import { deleteOrganizationQuery, organizationInput } from "@/lib/organizations/schemas";
import { readQuery } from "@/lib/http/pagination";
import { upsertOrganization } from "@/lib/organizations/upsert-organization";
import { identifyInput } from "@/lib/users/schemas";

export const POST = withProject("organizations.write", async (req, ctx) => {
  const input = await readJson(req, organizationInput);
  const { organization, created } = await upsertOrganization(ctx, input);
  return json(organization, created ? 201 : 200);
});

export const DELETE = withProject("organizations.write", async (req, ctx) => {
  const { identifier } = await readJson(req, identifyInput);
  await deleteOrganization(ctx, { identifier, opts: readQuery(req, deleteOrganizationQuery) });
  return noContent();
});
