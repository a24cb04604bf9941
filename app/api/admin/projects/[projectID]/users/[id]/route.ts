import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { eraseUser } from "@/lib/users/delete-user";
import { getUser } from "@/lib/users/get-user";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("users.read", (_req, ctx, params) =>
  getUser(ctx, readRecordId(params.id, "user")),
);

export const DELETE = adminRoute<Params>("users.delete", { status: 204 }, (_req, ctx, params) =>
  eraseUser(ctx, readRecordId(params.id, "user")),
);
