import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { previewList } from "@/lib/lists/preview-list";
import { listPreviewInput } from "@/lib/lists/schemas";

// A preview writes nothing, but it is the builder's: editors and above, like creating the list.
export const POST = adminRoute("lists.write", async (req, ctx) =>
  previewList(ctx, (await readJson(req, listPreviewInput)).rules),
);
