import { createInvite } from "@/lib/invites/create-invite";
import { listInvites } from "@/lib/invites/list-invites";
import { createInviteBody, listInvitesQuery } from "@/lib/invites/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute, json } from "@/lib/http/with-project";
import { publicOrigin } from "@/lib/http/public-origin";

export const GET = adminRoute("invites.read", (req, ctx) => listInvites(ctx, readQuery(req, listInvitesQuery)));

export const POST = adminRoute("invites.write", async (req, ctx) => {
  const { invite, created } = await createInvite(ctx, {
    body: await readJson(req, createInviteBody),
    origin: publicOrigin(req),
  });
  return json(invite, created ? 201 : 200);
});
