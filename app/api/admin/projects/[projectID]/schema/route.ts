import { listSchema, listSchemaQuery } from "@/lib/events/list-schema";
import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute("schema.read", (req, ctx) => listSchema(ctx, readQuery(req, listSchemaQuery)));
