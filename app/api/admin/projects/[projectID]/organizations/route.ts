import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { listOrganizations, listOrganizationsQuery } from "@/lib/organizations/list-organizations";

export const GET = withProject(
  "organizations.read",
  async (req, ctx) => json(await listOrganizations(ctx, readQuery(req, listOrganizationsQuery))),
  { sessions: true },
);
