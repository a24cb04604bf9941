import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { mintTrackedLinks } from "@/lib/links/mint-tracked-links";
import { mintLinksInput } from "@/lib/links/schemas";
import { publicOrigin } from "@/lib/http/public-origin";

export const POST = adminRoute("links.write", { status: 201 }, async (req, ctx) =>
  mintTrackedLinks(ctx, { body: await readJson(req, mintLinksInput), origin: publicOrigin(req) }),
);
