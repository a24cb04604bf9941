import { listSchema, listSchemaQuery } from "@/lib/events/list-schema";
import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject(
  "schema.read",
  async (req, ctx) => json(await listSchema(ctx, readQuery(req, listSchemaQuery))),
  { sessions: true },
);
