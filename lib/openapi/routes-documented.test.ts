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
    // A route whose handlers a factory builds (`export const { POST, DELETE } = usersRoutes(…)`: the client
    // routes, once for each of their two paths) is guarded as the factory's methods are.
    const built = /^export const \{([^}]*)\} = (\w+)\(/m.exec(source);
    if (built) source = await factoryMethods(source, built[2]!, built[1]!);
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

/**
 * The methods a route factory returns (`POST: withProject("users.write", …)`), written as the exports of a
 * route file would be, so the guard of each is read alike.
 */
async function factoryMethods(route: string, factory: string, names: string): Promise<string> {
  const from = new RegExp(`^import \\{[^}]*\\b${factory}\\b[^}]*\\} from "@/([^"]+)";`, "m").exec(route);
  if (!from) throw new Error(`no import of ${factory}`);
  const source = await readFile(path.join(ROOT, `${from[1]}.ts`), "utf8");
  const start = source.indexOf(`export function ${factory}(`);
  if (start < 0) throw new Error(`${factory} is not in ${from[1]}.ts`);
  const next = source.indexOf("\nexport ", start + 1);
  const body = source.slice(start, next < 0 ? undefined : next);
  return names
    .split(",")
    .map((n) => n.trim())
    .map((method) => {
      const at = new RegExp(`^\\s+${method}: `, "m").exec(body);
      if (!at) throw new Error(`${factory} returns no ${method}`);
      const rest = body.slice(at.index + at[0].length);
      const end = /^\s+[A-Z]+: /m.exec(rest);
      return `export const ${method} = ${end ? rest.slice(0, end.index) : rest}`;
    })
    .join("\n");
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
