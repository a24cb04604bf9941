import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chunksWithDrizzle, entryChunksMatching, GRAPESJS } from "./client-bundle";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "bundle-check-"));
  await mkdir(path.join(dir, "static", "chunks", "app"), { recursive: true });
  await writeFile(path.join(dir, "static", "chunks", "clean.js"), 'console.log("support","client","editor","admin")');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("chunksWithDrizzle", () => {
  it("passes a bundle without drizzle", async () => {
    expect(await chunksWithDrizzle(dir)).toEqual([]);
  });

  it("names a nested chunk carrying drizzle's entity keys, as a minified pgEnum does", async () => {
    await writeFile(
      path.join(dir, "static", "chunks", "app", "x.js"),
      'let a=Symbol.for("drizzle:isPgEnum");function b(){}',
    );
    expect(await chunksWithDrizzle(dir)).toEqual([
      { file: path.join("static", "chunks", "app", "x.js"), match: "drizzle:isPgEnum" },
    ]);
  });

  it("names a chunk mentioning the package", async () => {
    await writeFile(path.join(dir, "static", "chunks", "y.js"), "/* node_modules/drizzle-orm/pg-core/table.js */");
    expect((await chunksWithDrizzle(dir)).map((f) => f.match)).toEqual(["drizzle-orm"]);
  });
});

describe("entryChunksMatching", () => {
  const manifest = (page: string, entry: Record<string, string[]>) =>
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST["/${page}/page"] = ${JSON.stringify({ clientModules: {}, entryJSFiles: entry })};`;
  beforeEach(async () => {
    await mkdir(path.join(dir, "server", "app", "templates", "[id]"), { recursive: true });
    await writeFile(path.join(dir, "static", "chunks", "editor.js"), 'var a="grapesjs-mjml.category";');
    await writeFile(
      path.join(dir, "server", "app", "templates", "[id]", "page_client-reference-manifest.js"),
      manifest("templates/[id]", { "[project]/app/layout": ["static/chunks/clean.js"] }),
    );
  });

  it("passes GrapesJS in a chunk no page opens with (loaded by next/dynamic)", async () => {
    expect(await entryChunksMatching(dir, GRAPESJS)).toEqual([]);
  });

  it("names a page whose entry chunks carry GrapesJS", async () => {
    await writeFile(
      path.join(dir, "server", "app", "templates", "page_client-reference-manifest.js"),
      manifest("templates", { "[project]/app/templates/page": ["static/chunks/clean.js", "static/chunks/editor.js"] }),
    );
    expect(await entryChunksMatching(dir, GRAPESJS)).toEqual([
      { file: "static/chunks/editor.js", match: "grapesjs-mjml.", pages: ["templates/page"] },
    ]);
  });
});
