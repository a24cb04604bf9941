import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, eventsOf, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
let userId: string;
beforeAll(async () => {
  p = await createTestProject("links");
  userId = (
    await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: [{ external_id: "reader" }] } })
  ).body.id;
});

const mint = (body: unknown, key = p.keys.editor) => api("POST", p.admin("/links"), { key, body });
const follow = (path: string, method = "GET") => fetch(new URL(path, baseUrl), { method, redirect: "manual" });
const clicks = async () => eventsOf(p.projectId, "link.clicked");
const DEST = "https://shop.example.com/sale?utm_source=mail&x=%20y#top";

describe("tracked links", () => {
  it("mints one signed link per URL (editor or above)", async () => {
    const res = await mint({ campaign_id: "spring-sale", user_id: userId, urls: [DEST, "http://example.org/"] });
    expect(res.status).toBe(201);
    expect(res.body.campaign_id).toBe("spring-sale");
    expect(res.body.links.map((l: any) => l.original_url)).toEqual([DEST, "http://example.org/"]);
    for (const l of res.body.links) expect(l.tracked_url).toMatch(/\/l\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect((await mint({ campaign_id: "c", user_id: userId, urls: [DEST] }, p.keys.client)).status).toBe(403);
    expect(
      (await mint({ campaign_id: "c", user_id: "00000000-0000-7000-8000-000000000000", urls: [DEST] })).status,
    ).toBe(404);
  });

  it("refuses destinations that are not absolute http(s) URLs", async () => {
    for (const url of [
      "javascript:alert(1)",
      "//evil.example",
      "/relative",
      "data:text/html,hi",
      "https://user:pw@evil.example/",
      "ftp://x.example/",
      "not a url",
    ]) {
      const res = await mint({ campaign_id: "c", user_id: userId, urls: [url] });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].path).toBe("urls[0]");
    }
  });

  it("GET redirects (302) to the original URL and records link.clicked with campaign_id and original_url", async () => {
    const { links } = (await mint({ campaign_id: "spring-sale", user_id: userId, urls: [DEST] })).body;
    const before = (await clicks()).length;
    const res = await follow(new URL(links[0].tracked_url).pathname, "GET");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(DEST);
    const after = await clicks();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      user_id: userId,
      origin: "system",
      data: expect.objectContaining({ campaign_id: "spring-sale", original_url: DEST }),
    });
  });

  it("HEAD redirects without recording a click", async () => {
    const { links } = (await mint({ campaign_id: "head", user_id: userId, urls: [DEST] })).body;
    const before = (await clicks()).length;
    const res = await follow(new URL(links[0].tracked_url).pathname, "HEAD");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(DEST);
    expect(await clicks()).toHaveLength(before);
  });

  it("an unsigned, tampered or wrong-purpose token is a 404 that redirects nowhere (no open redirect)", async () => {
    const { links } = (await mint({ campaign_id: "c1", user_id: userId, urls: [DEST] })).body;
    const token = new URL(links[0].tracked_url).pathname.slice(3);
    const [body, sig] = token.split(".") as [string, string];
    const claim = JSON.parse(Buffer.from(body, "base64url").toString());
    const forge = (patch: object) => Buffer.from(JSON.stringify({ ...claim, ...patch })).toString("base64url");
    const prefs = (await api("POST", p.admin("/subscription-links"), { key: p.keys.editor, body: { user_id: userId } }))
      .body.preferences_url as string;
    const before = (await clicks()).length;
    for (const bad of [
      `${forge({ url: "https://evil.example/phish" })}.${sig}`,
      `${forge({ c: "other-campaign" })}.${sig}`,
      forge({ url: "https://evil.example/" }),
      `${body}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`,
      `${body}.`,
      new URL(prefs).pathname.split("/").pop()!,
      "https%3A%2F%2Fevil.example",
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await follow(`/l/${bad}`, method);
        expect(res.status, `${method} ${bad}`).toBe(404);
        expect(res.headers.get("location")).toBeNull();
      }
    }
    expect(await clicks()).toHaveLength(before);
  });

  it("still redirects for a recipient erased since the send, recording nothing", async () => {
    const gone = (
      await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: [{ external_id: "gone" }] } })
    ).body.id;
    const { links } = (await mint({ campaign_id: "c2", user_id: gone, urls: [DEST] })).body;
    expect((await api("DELETE", p.admin(`/users/${gone}`), { key: p.keys.admin })).status).toBe(204);
    const before = (await clicks()).length;
    const res = await follow(new URL(links[0].tracked_url).pathname);
    expect(res.status).toBe(302);
    expect(await clicks()).toHaveLength(before);
  });
});
