import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { mintTrackedLinks } from "@/lib/links/mint-tracked-links";
import { mintLinksInput } from "@/lib/links/schemas";
import { publicOrigin } from "@/lib/http/public-origin";

export const POST = withProject(
  "links.write",
  async (req, ctx) =>
    json(await mintTrackedLinks(ctx, { body: await readJson(req, mintLinksInput), origin: publicOrigin(req) }), 201),
  { sessions: true },
);
