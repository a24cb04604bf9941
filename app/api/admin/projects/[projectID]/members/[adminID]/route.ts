import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { changeMemberRole } from "@/lib/members/change-member-role";
import { removeMember } from "@/lib/members/remove-member";
import { changeRoleBody } from "@/lib/members/schemas";

type Params = { projectID: string; adminID: string };

export const PATCH = adminRoute<Params>("members.write", async (req, ctx, params) => {
  const { role } = await readJson(req, changeRoleBody);
  const row = await changeMemberRole(ctx, { adminId: readRecordId(params.adminID, "member"), role });
  return {
    admin_id: row.adminId,
    role: row.role,
    joined_at: row.createdAt.toISOString(),
    revoked_key_ids: row.revokedKeyIds,
  };
});

export const DELETE = adminRoute<Params>("members.write", { status: 204 }, (_req, ctx, params) =>
  removeMember(ctx, readRecordId(params.adminID, "member")),
);
