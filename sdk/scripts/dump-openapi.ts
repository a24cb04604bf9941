import { writeFileSync } from "node:fs";
import { openApiDocument } from "../../lib/openapi/document";

/**
 * Writes the part of our OpenAPI document the SDK calls (the key-scoped `/api/client/...` paths and the
 * component schemas they reach) to sdk/openapi.json, the input of `npm run generate` (openapi-typescript).
 * `sdk/src/openapi-drift.test.ts` fails when the server's document and this file disagree.
 */
export function clientDocument() {
  const doc = openApiDocument();
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([p]) => p.startsWith("/api/client/") && !p.startsWith("/api/client/projects/")));
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const keep = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        const name = v.slice("#/components/schemas/".length);
        if (!keep.has(name)) {
          keep.add(name);
          visit(schemas[name]);
        }
      } else visit(v);
    }
  };
  visit(paths);
  const components = { ...doc.components, schemas: Object.fromEntries([...keep].sort().map((n) => [n, schemas[n]])) };
  return { ...doc, paths, components };
}

if (process.argv[1]?.endsWith("dump-openapi.ts")) {
  writeFileSync(new URL("../openapi.json", import.meta.url), `${JSON.stringify(clientDocument(), null, 2)}\n`);
}
