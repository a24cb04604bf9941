import type { Metadata } from "next";
import { InlineCode } from "@/components/inline-code";
import { SchemaFields, typeLabel, type Components } from "@/components/json-schema";
import { operationAnchor } from "@/lib/openapi/anchor";
import { openApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API reference" };

const METHOD_STYLES: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  patch: "bg-amber-100 text-amber-800",
  put: "bg-amber-100 text-amber-800",
  delete: "bg-rose-100 text-rose-800",
};

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: object }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
  "x-required-role"?: string;
};

export default function ApiReference() {
  const doc = openApiDocument() as unknown as {
    info: { title: string; description: string };
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Components };
  };
  const components = doc.components?.schemas ?? {};
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const tags = [...new Set(ops.map((o) => o.op.tags?.[0] ?? "Other"))];

  return (
    <div className="mx-auto flex max-w-7xl gap-10 px-6 py-10">
      <nav
        aria-label="Endpoints"
        className="sticky top-6 hidden h-[calc(100vh-3rem)] w-72 shrink-0 overflow-y-auto lg:block"
      >
        <a href="/" className="text-sm font-semibold text-indigo-600">
          Relay
        </a>
        {tags.map((tag) => (
          <div key={tag} className="mt-6">
            <p className="text-xs font-semibold uppercase tracking-wider text-zinc-500">{tag}</p>
            <ul className="mt-2 space-y-1">
              {ops
                .filter((o) => (o.op.tags?.[0] ?? "Other") === tag)
                .map(({ path, method, op }) => (
                  <li key={method + path}>
                    <a
                      href={`#${operationAnchor(method, path)}`}
                      className="flex items-center gap-2 rounded px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100"
                    >
                      <span
                        className={`w-14 shrink-0 rounded px-1 text-center font-mono text-[10px] font-bold uppercase ${METHOD_STYLES[method] ?? ""}`}
                      >
                        {method}
                      </span>
                      <span className="truncate">{op.summary}</span>
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <main className="min-w-0 flex-1">
        <h1 className="text-3xl font-semibold tracking-tight">{doc.info.title} reference</h1>
        <p className="mt-3 max-w-3xl text-zinc-600">
          <InlineCode text={doc.info.description} />
        </p>
        <p className="mt-2 text-sm text-zinc-500">
          Machine-readable:{" "}
          <a className="text-indigo-600 underline" href="/api/openapi.json">
            /api/openapi.json
          </a>{" "}
          (OpenAPI 3.1).
        </p>
        {tags.map((tag) => (
          <section key={tag} className="mt-12">
            <h2 className="text-xl font-semibold">{tag}</h2>
            {ops
              .filter((o) => (o.op.tags?.[0] ?? "Other") === tag)
              .map(({ path, method, op }) => {
                const body = op.requestBody?.content["application/json"]?.schema;
                const query = (op.parameters ?? []).filter((p) => p.in === "query");
                return (
                  <article
                    key={method + path}
                    id={operationAnchor(method, path)}
                    className="mt-6 scroll-mt-6 rounded-lg border border-zinc-200 bg-white p-6 shadow-sm"
                  >
                    <div className="flex flex-wrap items-center gap-3">
                      <span
                        className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_STYLES[method] ?? ""}`}
                      >
                        {method}
                      </span>
                      <code className="break-all font-mono text-sm text-zinc-800">{path}</code>
                    </div>
                    <h3 className="mt-3 text-lg font-medium">{op.summary}</h3>
                    {op.description ? (
                      <p className="mt-1 text-sm text-zinc-600">
                        <InlineCode text={op.description} />
                      </p>
                    ) : null}
                    {op["x-required-role"] ? (
                      <p className="mt-1 text-sm text-zinc-600">
                        Needs role <code className="font-mono font-semibold">{op["x-required-role"]}</code> or above.
                      </p>
                    ) : null}
                    {query.length ? (
                      <div className="mt-4">
                        <h4 className="text-sm font-semibold text-zinc-700">Query parameters</h4>
                        <ul className="mt-1 divide-y divide-zinc-100">
                          {query.map((p) => (
                            <li key={p.name} className="py-1.5 text-sm">
                              <code className="font-mono font-semibold">{p.name}</code>{" "}
                              <span className="font-mono text-xs text-indigo-700">
                                {typeLabel(p.schema ?? {}, components)}
                              </span>
                            </li>
                          ))}
                        </ul>
                      </div>
                    ) : null}
                    {body ? (
                      <div className="mt-4">
                        <h4 className="text-sm font-semibold text-zinc-700">
                          Body{" "}
                          <span className="font-mono text-xs font-normal text-indigo-700">
                            {typeLabel(body, components)}
                          </span>
                        </h4>
                        <SchemaFields schema={body} components={components} />
                      </div>
                    ) : null}
                    <div className="mt-4">
                      <h4 className="text-sm font-semibold text-zinc-700">Responses</h4>
                      <ul className="mt-1 space-y-1 text-sm">
                        {Object.entries(op.responses).map(([status, r]) => (
                          <li key={status} className="flex gap-3">
                            <span
                              className={`w-10 shrink-0 font-mono font-semibold ${status.startsWith("2") ? "text-emerald-700" : "text-rose-700"}`}
                            >
                              {status}
                            </span>
                            <span className="text-zinc-600">
                              <InlineCode text={r.description} />
                            </span>
                          </li>
                        ))}
                      </ul>
                    </div>
                  </article>
                );
              })}
          </section>
        ))}
      </main>
    </div>
  );
}
