import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteOrganizationById } from "@/lib/organizations/delete-organization";
import { getOrganization } from "@/lib/organizations/get-organization";
import { deleteOrganizationQuery } from "@/lib/organizations/schemas";
import { readQuery } from "@/lib/http/pagination";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("organizations.read", (_req, ctx, params) =>
  getOrganization(ctx, readRecordId(params.id, "organization")),
);

export const DELETE = adminRoute<Params>("organizations.delete", { status: 204 }, (req, ctx, params) =>
  deleteOrganizationById(ctx, {
    id: readRecordId(params.id, "organization"),
    opts: readQuery(req, deleteOrganizationQuery),
  }),
);
