import { json, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { organizationBatchInput } from "@/lib/organizations/schemas";
import { upsertOrganizations } from "@/lib/organizations/upsert-organization";

export const POST = withProject("organizations.write", async (req, ctx) => {
  const inputs = await readJson(req, organizationBatchInput);
  const { organizations, created } = await upsertOrganizations(ctx, inputs);
  return json({ data: organizations, created, updated: organizations.length - created });
});
