import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { registry } from "./registry";
import "./client-paths";
import "./admin-paths";
import "./events-paths";
import "./lists-paths";
import "./project-settings-paths";
import "./journeys-paths";
import "./schedule-paths";
import "./console-paths";
import "./subscriptions-paths";
import "./segment-paths";
import "./operations-paths";
import "./console-stats-paths";
import "./destinations-paths";
import "./explain-paths";
import "./messages-paths";
import "./feedback-paths";
import "./send-paths";
import "./reports-paths";
import "./authoring-paths";

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. `origin` (the
 * public origin, lib/http/public-origin.ts) becomes the `servers` entry; without it, the document's own.
 */
export function openApiDocument(origin?: string) {
  cached ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Relay API",
      version: "1.0.0",
      description:
        "Client ingestion (`/api/client/...`, role `client`) and project administration (`/api/admin/...`). Errors are RFC 9457 problem+json. Lists answer `{data, next_cursor}` with `?limit=` (default 50, max 500) and `?cursor=`.",
    },
    servers: [{ url: "/" }],
  });
  return origin ? { ...cached, servers: [{ url: origin }] } : cached;
}
