import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, type TestProject } from "@/scripts/test/helpers";

/*
 * Documents over HTTP: the type is what the bytes are (never the name or the upload's header), SVG and
 * everything else refused, served publicly with the sniffed type, nosniff and a policy under which
 * nothing runs; list, delete, quota.
 */
let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("documents");
}, 60_000);

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const GIF = Buffer.from("R0lGODlhAQABAAAAACwAAAAAAQABAAA=", "base64");

function upload(bytes: Buffer, name: string, type: string, key = p.keys.editor) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return api("POST", `/api/admin/projects/${p.projectId}/documents`, { key, raw: form });
}

describe("documents", () => {
  it("a PNG renamed .jpg and declared image/jpeg is stored and served as image/png, nosniff, cacheable", async () => {
    const res = await upload(PNG, "photo.jpg", "image/jpeg");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: "photo.jpg", content_type: "image/png", size: PNG.length });
    const path = new URL(res.body.url).pathname;
    expect(path).toBe(`/d/${res.body.id}/photo.jpg`);
    const got = await fetch(baseUrl + path);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(got.headers.get("cache-control")).toContain("public");
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
    // The URL names one document under its own name only.
    expect((await fetch(`${baseUrl}/d/${res.body.id}/other.png`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/d/not-a-uuid/photo.jpg`)).status).toBe(404);
  });

  it("an SVG with a script and an HTML page named .png are refused (415), and nothing is stored", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusedSvg = await upload(svg, "logo.svg", "image/svg+xml");
    expect(refusedSvg.status).toBe(415);
    const html = Buffer.from("<!doctype html><script>alert(document.cookie)</script>");
    const refusedHtml = await upload(html, "innocent.png", "image/png");
    expect(refusedHtml.status).toBe(415);
    expect(refusedHtml.body.errors[0].path).toBe("file");
    const list = await api("GET", `/api/admin/projects/${p.projectId}/documents`, { key: p.keys.support });
    expect(list.body.data.every((d: { name: string }) => d.name !== "innocent.png" && d.name !== "logo.svg")).toBe(
      true,
    );
  });

  it("refuses a body that is not multipart, one without a file, and more than 5 MB", async () => {
    const json = await api("POST", `/api/admin/projects/${p.projectId}/documents`, {
      key: p.keys.editor,
      body: { file: "x" },
    });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append("other", "x");
    expect(
      (await api("POST", `/api/admin/projects/${p.projectId}/documents`, { key: p.keys.editor, raw: form })).status,
    ).toBe(400);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    PNG.copy(big);
    expect((await upload(big, "big.png", "image/png")).status).toBe(413);
  });

  it("list, delete, roles and the project's quota", async () => {
    const gif = await upload(GIF, "dot.gif", "application/octet-stream");
    expect(gif.body.content_type).toBe("image/gif");
    expect((await upload(GIF, "x.gif", "image/gif", p.keys.support)).status).toBe(403);
    const list = await api("GET", `/api/admin/projects/${p.projectId}/documents?limit=1`, { key: p.keys.support });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.next_cursor).not.toBeNull();
    const quota = await api("PATCH", `/api/admin/projects/${p.projectId}`, {
      key: p.keys.admin,
      body: { document_quota_bytes: PNG.length + GIF.length + 10 },
    });
    expect(quota.status, JSON.stringify(quota.body)).toBe(200);
    expect((await upload(PNG, "over.png", "image/png")).status).toBe(422);
    const del = await api("DELETE", `/api/admin/projects/${p.projectId}/documents/${gif.body.id}`, {
      key: p.keys.editor,
    });
    expect(del.status).toBe(204);
    expect((await fetch(new URL(gif.body.url).pathname.replace(/^/, baseUrl))).status).toBe(404);
    expect((await upload(GIF, "again.gif", "image/gif")).status).toBe(201);
  });
});
