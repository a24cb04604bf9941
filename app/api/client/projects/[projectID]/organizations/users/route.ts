import { json, noContent, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { addMember, removeMember } from "@/lib/organizations/memberships";
import { membershipInput, membershipRemoveInput } from "@/lib/organizations/schemas";

export const POST = withProject("organizations.write", async (req, ctx) => {
  const input = await readJson(req, membershipInput);
  const { membership, created } = await addMember(ctx, input);
  return json(membership, created ? 201 : 200);
});

export const DELETE = withProject("organizations.write", async (req, ctx) => {
  const input = await readJson(req, membershipRemoveInput);
  await removeMember(ctx, { org: input.organization.identifier, user: input.user.identifier });
  return noContent();
});
