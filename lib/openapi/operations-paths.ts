import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { registry } from "./registry";
import { jsonResponse } from "./responses";

// Operational endpoints: for load balancers, Prometheus and API clients, outside the project APIs.
registry.registerComponent("securitySchemes", "metricsToken", {
  type: "http",
  scheme: "bearer",
  description: "The value of the server's `METRICS_TOKEN` (not a project API key).",
});

const check = z.object({
  ok: z.boolean(),
  detail: z.string(),
  value: z.number().nullable().optional(),
  limit: z.number().optional(),
});
const health = z.object({ status: z.string(), checks: z.record(z.string(), check) }).meta({ id: "Health" });

/** An operational GET: tagged Operations, and open to anyone unless `security` names a credential. */
const operation = (route: Omit<RouteConfig, "method" | "tags">) =>
  registry.registerPath({ method: "get", tags: ["Operations"], security: [], ...route });

operation({
  path: "/api/health/live",
  summary: "Liveness",
  description: "The process answers; touches nothing else, so a database outage never restarts the web.",
  responses: { 200: jsonResponse(health, "Alive.") },
});
operation({
  path: "/api/health/ready",
  summary: "Readiness",
  description:
    "200 when every check (`database`, `migrations` at head, a recent `worker` heartbeat, `intake_backlog` and `intake_age` under their limits) passes; 503 with `Retry-After` naming the failing ones.",
  responses: { 200: jsonResponse(health, "Ready."), 503: jsonResponse(health, "Not ready; `checks` says why.") },
});
operation({
  path: "/api/metrics",
  security: [{ metricsToken: [] }],
  summary: "Prometheus metrics of this web process",
  responses: {
    200: { description: "Prometheus text exposition.", content: { "text/plain": { schema: z.string() } } },
    401: { description: "Missing or wrong token." },
    404: { description: "Metrics are off: `METRICS_TOKEN` is not set." },
  },
});
operation({
  path: "/api/openapi.json",
  summary: "This OpenAPI 3.1 document",
  responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "The document.") },
});
