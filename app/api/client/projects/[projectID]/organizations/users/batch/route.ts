import { json, withProject } from "@/lib/http/with-project";
import { readJson } from "@/lib/http/read-json";
import { addMembersBatch } from "@/lib/organizations/add-members-batch";
import { membershipBatchInput } from "@/lib/organizations/schemas";

export const POST = withProject("organizations.write", async (req, ctx) => {
  const inputs = await readJson(req, membershipBatchInput);
  const { memberships, created } = await addMembersBatch(ctx, inputs);
  return json({ data: memberships, created, updated: memberships.length - created });
});
