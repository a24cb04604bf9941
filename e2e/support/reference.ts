import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { operationAnchor } from "../../lib/openapi/anchor";

type Schema = { $ref?: string; properties?: Record<string, unknown> };
type Operation = {
  summary?: string;
  tags?: string[];
  "x-required-role"?: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
};
export type DocumentedOperation = { method: string; path: string; op: Operation; bodyFields: string[] };

/** Every operation of the served OpenAPI document, with its JSON body's top-level field names. */
export async function documentedOperations(request: APIRequestContext): Promise<DocumentedOperation[]> {
  const res = await request.get("/api/openapi.json");
  expect(res.ok()).toBe(true);
  const doc = (await res.json()) as {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const schemas = doc.components?.schemas ?? {};
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      let body = op.requestBody?.content["application/json"]?.schema;
      if (body?.$ref) body = schemas[body.$ref.split("/").pop()!];
      return { method, path, op, bodyFields: Object.keys(body?.properties ?? {}) };
    }),
  );
}

/**
 * What /docs/api shows for each operation: method, path, summary, role, response codes and body fields.
 * The page is read once (one round trip for a hundred operations) and compared here.
 */
export async function expectReferenceShows(page: Page, ops: DocumentedOperation[]) {
  expect(ops.length).toBeGreaterThan(0);
  const shown = await page.locator("main article").evaluateAll((articles) =>
    Object.fromEntries(
      articles.map((a) => [
        a.id,
        {
          method: a.querySelector("span")?.textContent?.trim().toLowerCase() ?? "",
          path: a.querySelector("code")?.textContent ?? "",
          summary: a.querySelector("h3")?.textContent ?? "",
          words: [...a.querySelectorAll("li, code, span, p")].map((e) => e.textContent?.trim() ?? ""),
        },
      ]),
    ),
  );
  for (const { method, path, op, bodyFields } of ops) {
    const got = shown[operationAnchor(method, path)];
    expect(got, `${method} ${path} is on the page`).toBeDefined();
    expect({ method: got!.method, path: got!.path, summary: got!.summary }).toEqual({
      method,
      path,
      summary: op.summary ?? "",
    });
    const words = new Set(got!.words);
    const expected = [
      ...Object.keys(op.responses),
      ...bodyFields,
      ...(op["x-required-role"] ? [`Needs role ${op["x-required-role"]} or above.`] : []),
    ];
    expect(
      expected.filter((w) => !words.has(w)),
      `${method} ${path}: responses, body fields and role shown`,
    ).toEqual([]);
  }
}
