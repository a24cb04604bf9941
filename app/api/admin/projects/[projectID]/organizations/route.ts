import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { listOrganizations, listOrganizationsQuery } from "@/lib/organizations/list-organizations";

export const GET = adminRoute("organizations.read", (req, ctx) =>
  listOrganizations(ctx, readQuery(req, listOrganizationsQuery)),
);
