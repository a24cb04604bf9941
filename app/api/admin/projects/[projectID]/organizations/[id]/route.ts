import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteOrganizationById } from "@/lib/organizations/delete-organization";
import { getOrganization } from "@/lib/organizations/get-organization";
import { deleteOrganizationQuery } from "@/lib/organizations/schemas";
import { readQuery } from "@/lib/http/pagination";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "organizations.read",
  async (_req, ctx, params) => json(await getOrganization(ctx, readRecordId(params.id, "organization"))),
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "organizations.delete",
  async (req, ctx, params) => {
    await deleteOrganizationById(ctx, {
      id: readRecordId(params.id, "organization"),
      opts: readQuery(req, deleteOrganizationQuery),
    });
    return noContent();
  },
  { sessions: true },
);
