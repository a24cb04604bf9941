import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { previewList } from "@/lib/lists/preview-list";
import { listPreviewInput } from "@/lib/lists/schemas";

// A preview writes nothing, but it is the builder's: editors and above, like creating the list.
export const POST = withProject(
  "lists.write",
  async (req, ctx) => json(await previewList(ctx, (await readJson(req, listPreviewInput)).rules)),
  { sessions: true },
);
