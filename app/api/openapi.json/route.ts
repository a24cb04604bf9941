import { publicOrigin } from "@/lib/http/public-origin";
import { openApiDocument } from "@/lib/openapi/document";

/** Rendered per request (not prerendered at build): its `servers` entry is the configured public origin. */
export function GET(req: Request) {
  return Response.json(openApiDocument(publicOrigin(req)));
}
