import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { eraseUser } from "@/lib/users/delete-user";
import { getUser } from "@/lib/users/get-user";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "users.read",
  async (_req, ctx, params) => json(await getUser(ctx, readRecordId(params.id, "user"))),
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "users.delete",
  async (_req, ctx, params) => {
    await eraseUser(ctx, readRecordId(params.id, "user"));
    return noContent();
  },
  { sessions: true },
);
