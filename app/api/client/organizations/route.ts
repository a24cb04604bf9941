import { lunogramIdentifyInput, lunogramOrganizationInput } from "@/lib/lunogram/shapes";
import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteOrganization } from "@/lib/organizations/delete-organization";
import { deleteOrganizationQuery } from "@/lib/organizations/schemas";
import { upsertOrganization } from "@/lib/organizations/upsert-organization";

// The project path's handlers with the project taken from the API key; bodies tolerate the response-only
// fields the Lunogram Python SDK sends (lib/lunogram/shapes.ts).
export const POST = withProject("organizations.write", async (req, ctx) => {
  const input = await readJson(req, lunogramOrganizationInput);
  const { organization, created } = await upsertOrganization(ctx, input);
  return json(organization, created ? 201 : 200);
});

export const DELETE = withProject("organizations.write", async (req, ctx) => {
  const { identifier } = await readJson(req, lunogramIdentifyInput);
  await deleteOrganization(ctx, { identifier, opts: readQuery(req, deleteOrganizationQuery) });
  return noContent();
});
