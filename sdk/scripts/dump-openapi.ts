import { writeFileSync } from "node:fs";
import { openApiDocument } from "../../lib/openapi/document";

type Document = ReturnType<typeof openApiDocument>;

/**
 * Writes the part of our OpenAPI document the SDK calls (the key-scoped `/api/client/...` paths, the
 * admin API's destinations, providers, templates, broadcasts, messages log and journeys, and the component
 * schemas they reach) to sdk/openapi.json, the input of `npm run generate:sdk`
 * (sdk/scripts/generate-types.ts). `sdk/src/openapi-drift.test.ts` fails when the server's document and
 * this file disagree.
 */
export function clientDocument() {
  const doc = openApiDocument();
  return withPaths(
    doc,
    (p) =>
      (p.startsWith("/api/client/") && !p.startsWith("/api/client/projects/")) ||
      /^\/api\/admin\/projects\/\{projectID\}\/(destinations|providers|templates|broadcasts|messages|journeys)(\/|$)/.test(
        p,
      ) ||
      // The explain endpoints RelayAdmin calls (role support): why (not) in a list or journey, trace, timeline.
      /^\/api\/admin\/projects\/\{projectID\}\/(lists|journeys)\/\{id\}\/explain$/.test(p) ||
      /^\/api\/admin\/projects\/\{projectID\}\/events\/\{id\}\/trace$/.test(p) ||
      /^\/api\/admin\/projects\/\{projectID\}\/users\/\{id\}\/timeline$/.test(p),
  );
}

/** `doc` with only the paths `keep` accepts and only the component schemas those paths reach (sorted by name). */
export function withPaths<D extends Pick<Document, "paths" | "components">>(
  doc: D,
  keep: (path: string) => boolean,
): D {
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([p]) => keep(p)));
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const reached = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        const name = v.slice("#/components/schemas/".length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(v);
    }
  };
  visit(paths);
  const components = {
    ...doc.components,
    schemas: Object.fromEntries([...reached].sort().map((n) => [n, schemas[n]])),
  };
  return { ...doc, paths, components };
}

if (process.argv[1]?.endsWith("dump-openapi.ts")) {
  writeFileSync(new URL("../openapi.json", import.meta.url), `${JSON.stringify(clientDocument(), null, 2)}\n`);
}
