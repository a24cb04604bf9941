import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "@/lib/access/permissions";
import { openApiDocument } from "./document";

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Routes that are not part of our API: the JSON 404 for unknown paths, and Auth.js's own protocol. */
const NOT_OURS = new Set(["/api/{...path}", "/api/auth/{...nextauth}"]);

type Guard =
  | { kind: "project"; permission: keyof typeof PERMISSIONS; sessions: boolean }
  | { kind: "session" }
  | { kind: "public" }
  | { kind: "other" };

interface RouteHandler {
  file: string;
  path: string;
  method: (typeof METHODS)[number];
  guard: Guard;
}

/** Reads each route file's exported handlers and the wrapper (with its permission) each is built with. */
async function routeHandlers(): Promise<RouteHandler[]> {
  const dir = path.join(ROOT, "app/api");
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith("route.ts")).sort();
  const out: RouteHandler[] = [];
  for (const rel of files) {
    const file = `app/api/${rel.split(path.sep).join("/")}`;
    let source = await readFile(path.join(ROOT, file), "utf8");
    // A route that re-exports another's handlers (the key-scoped client mirrors) is guarded as that one.
    const reexport = /^export \{[^}]*\} from "@\/(app\/[^"]+)";/m.exec(source);
    if (reexport)
      source = (await readFile(path.join(ROOT, `${reexport[1]}.ts`), "utf8"))
        .split(/(?=^export )/m)
        .filter((p) => p.startsWith("export "))
        .join("");
    const routePath =
      "/" +
      path.posix
        .dirname(file)
        .slice("app/".length)
        .replace(/\[([^\]]+)\]/g, "{$1}");
    // Each export's text runs to the next export, so options such as `{ sessions: true }` stay with it.
    const parts = source.split(/(?=^export )/m);
    for (const method of METHODS) {
      const part = parts.find((p) =>
        new RegExp(`^export (const|async function|function) ${method}\\b|^export \\{[^}]*\\b${method}\\b`).test(p),
      );
      if (!part) continue;
      // `adminRoute` is `withProject` with console sessions on.
      const project = /=\s*(withProject|adminRoute)(?:<[^>]*>)?\(\s*"([a-z.]+)"/.exec(part);
      const guard: Guard = project
        ? {
            kind: "project",
            permission: project[2] as keyof typeof PERMISSIONS,
            sessions: project[1] === "adminRoute" || /\bsessions:\s*true\b/.test(part),
          }
        : /=\s*withSession\b/.test(part)
          ? { kind: "session" }
          : /=\s*publicRoute\b/.test(part)
            ? { kind: "public" }
            : { kind: "other" };
      out.push({ file, path: routePath, method, guard });
    }
  }
  return out;
}

type Operation = { security?: Record<string, string[]>[]; "x-permission"?: string; "x-required-role"?: string };
const schemes = (op: Operation) => (op.security ?? []).flatMap((s) => Object.keys(s)).sort();

describe("every route under app/api is in the OpenAPI document with the access its wrapper enforces", async () => {
  const handlers = await routeHandlers();
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };

  it("finds the routes", () => {
    expect(handlers.length).toBeGreaterThan(60);
    expect(handlers.filter((h) => h.guard.kind === "project").length).toBeGreaterThan(50);
  });

  for (const h of handlers.filter((h) => !NOT_OURS.has(h.path))) {
    it(`${h.method} ${h.path}`, () => {
      const op = doc.paths[h.path]?.[h.method.toLowerCase()];
      expect(op, `${h.file} exports ${h.method} but the OpenAPI document has no such operation`).toBeDefined();
      const g = h.guard;
      if (g.kind === "project") {
        expect({ permission: op!["x-permission"], role: op!["x-required-role"] }).toEqual({
          permission: g.permission,
          role: PERMISSIONS[g.permission],
        });
        // Segment's routes also take the key as the HTTP Basic user (its write-key convention).
        expect(schemes(op!)).toEqual(
          g.sessions ? ["apiKey", "session"] : h.path.startsWith("/api/v1/") ? ["apiKey", "writeKey"] : ["apiKey"],
        );
      } else {
        expect(op!["x-permission"]).toBeUndefined();
        if (g.kind === "session") expect(schemes(op!)).toEqual(["session"]);
        if (g.kind === "public") expect(schemes(op!)).toEqual([]);
      }
    });
  }

  it("documents no /api operation that has no route", () => {
    const routes = new Set(handlers.map((h) => `${h.method.toLowerCase()} ${h.path}`));
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    expect(documented.filter((o) => o.split(" ")[1]!.startsWith("/api/") && !routes.has(o))).toEqual([]);
  });
});
