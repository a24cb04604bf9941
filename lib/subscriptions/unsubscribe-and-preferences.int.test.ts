import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
let groups: Record<string, string>;
beforeAll(async () => {
  p = await createTestProject("unsubscribe");
  groups = {};
  for (const [name, channel] of [
    ["Marketing", "email"],
    ["Digest", "email"],
    ["Texts", "sms"],
  ] as const) {
    groups[name] = (
      await api("POST", p.admin("/subscription-groups"), { key: p.keys.admin, body: { name, channel } })
    ).body.id;
  }
});

/** Requests without following redirects, as a mail client or a scanner would see them. */
const raw = (path: string, init: RequestInit = {}) => fetch(new URL(path, baseUrl), { redirect: "manual", ...init });
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const pathOf = (url: string) => new URL(url).pathname;
/** The page's HTML without React's text-boundary comments, so sentences can be matched whole. */
const htmlOf = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

async function newUser(externalId: string) {
  return (
    await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: externalId }], email: `${externalId}@example.com` },
    })
  ).body.id as string;
}
async function links(userId: string, group?: string, key = p.keys.editor) {
  return api("POST", p.admin("/subscription-links"), { key, body: { user_id: userId, ...(group ? { group } : {}) } });
}
async function stateOf(userId: string, group: string) {
  const [row] =
    await sql`select state, source from user_subscriptions where project_id = ${p.projectId} and user_id = ${userId} and group_id = ${groups[group]!}`;
  return row ? `${row.state}/${row.source}` : "unset";
}
/** group id -> the value of its checked radio, read from the page's inputs. */
function checkedRadios(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tag of html.match(/<input[^>]*type="radio"[^>]*>/g) ?? []) {
    const name = /name="group:([^"]+)"/.exec(tag)?.[1];
    if (name && tag.includes('checked=""')) out[name] = /value="([^"]+)"/.exec(tag)![1]!;
  }
  return out;
}
const tokenOf = (url: string) => pathOf(url).split("/").pop()!;

describe("minting subscription links", () => {
  it("returns the unsubscribe URL with RFC 8058 headers and a preference-center URL; editor or above only", async () => {
    const id = await newUser("mint-1");
    const res = await links(id, "Marketing");
    expect(res.status).toBe(200);
    expect(res.body.unsubscribe_url).toMatch(/\/u\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(res.body.preferences_url).toMatch(/\/preferences\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(res.body.headers).toEqual({
      "List-Unsubscribe": `<${res.body.unsubscribe_url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect((await links(id)).body).toMatchObject({ unsubscribe_url: null, headers: {} });
    expect((await links(id, "Marketing", p.keys.client)).status).toBe(403);
    expect((await links("00000000-0000-7000-8000-000000000000", "Marketing")).status).toBe(404);
    expect((await links(id, "Nope")).status).toBe(404);
  });
});

describe("one-click unsubscribe", () => {
  it("GET changes nothing and leads to a confirmation page with a button (link scanners are harmless)", async () => {
    const id = await newUser("get-1");
    const url = (await links(id, "Marketing")).body.unsubscribe_url as string;
    const res = await raw(pathOf(url));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/unsubscribe/${tokenOf(url)}`);
    expect((await raw(pathOf(url), { method: "HEAD" })).status).toBe(303);
    const page = await raw(res.headers.get("location")!);
    expect(page.status).toBe(200);
    const html = await htmlOf(page);
    expect(html).toContain("Unsubscribe from Marketing?");
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Unsubscribe<\/button>/);
    expect(html).toContain("g•••");
    expect(await stateOf(id, "Marketing")).toBe("unset");
  });

  it("POST with List-Unsubscribe=One-Click unsubscribes that user from that group only, and repeating it is harmless", async () => {
    const id = await newUser("post-1");
    const url = (await links(id, "Marketing")).body.unsubscribe_url as string;
    const res = await raw(pathOf(url), form({ "List-Unsubscribe": "One-Click" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ unsubscribed: true, group: "Marketing", changed: true });
    expect(await stateOf(id, "Marketing")).toBe("unsubscribed/one_click");
    expect(await stateOf(id, "Digest")).toBe("unset");
    const again = await raw(pathOf(url), form({ "List-Unsubscribe": "One-Click" }));
    expect(await again.json()).toMatchObject({ changed: false });
    const [{ count }] =
      await sql`select count(*)::int as count from subscription_changes where project_id = ${p.projectId} and user_id = ${id}`;
    expect(count).toBe(1);
    // The confirmation page now says so.
    expect(await htmlOf(await raw(`/unsubscribe/${tokenOf(url)}`))).toContain("You’re unsubscribed from Marketing");
  });

  it("concurrent one-click POSTs for one user record the change once", async () => {
    const id = await newUser("race-1");
    const url = (await links(id, "Digest")).body.unsubscribe_url as string;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => raw(pathOf(url), form({ "List-Unsubscribe": "One-Click" }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const [{ count }] =
      await sql`select count(*)::int as count from subscription_changes where project_id = ${p.projectId} and user_id = ${id}`;
    expect(count).toBe(1);
    const [{ events }] =
      await sql`select count(*)::int as events from events where project_id = ${p.projectId} and user_id = ${id} and name = 'user.subscription.changed'`;
    expect(events).toBe(1);
  });

  it("the page's button unsubscribes and comes back to a confirmation", async () => {
    const id = await newUser("page-1");
    const url = (await links(id, "Digest")).body.unsubscribe_url as string;
    const res = await raw(pathOf(url), form({ from: "page" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/unsubscribe/${tokenOf(url)}?done=1`);
    expect(await stateOf(id, "Digest")).toBe("unsubscribed/unsubscribe_page");
  });

  it("refuses tampered, unsigned, re-targeted and wrong-purpose tokens with 404, changing nothing", async () => {
    const victim = await newUser("victim");
    const attacker = await newUser("attacker");
    const mine = (await links(attacker, "Marketing")).body;
    const [body, sig] = tokenOf(mine.unsubscribe_url).split(".") as [string, string];
    const claim = JSON.parse(Buffer.from(body, "base64url").toString());
    const forge = (patch: object) =>
      `${Buffer.from(JSON.stringify({ ...claim, ...patch })).toString("base64url")}.${sig}`;
    const other = await createTestProject("elsewhere");
    const bad = [
      forge({ u: victim }), // another user
      forge({ g: groups.Digest }), // another group
      forge({ p: other.projectId }), // another project
      `${body}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`, // changed signature
      body, // unsigned
      `${body}.`,
      tokenOf(mine.preferences_url), // signed, but for the preference center
      "not-a-token",
    ];
    for (const token of bad) {
      const res = await raw(`/u/${token}`, form({ "List-Unsubscribe": "One-Click" }));
      expect(res.status, token).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const page = await raw(`/unsubscribe/${token}`);
      expect(page.status).toBe(404);
      // Next 16 renders not-found pages from the flight payload in the HTML, so match the raw text.
      expect(await page.text()).toContain("This unsubscribe link is not valid");
      const viaPage = await raw(`/u/${token}`, form({ from: "page" }));
      expect(viaPage.headers.get("location")).toBe(`/unsubscribe/${token}?error=1`);
    }
    expect(await stateOf(victim, "Marketing")).toBe("unset");
    expect(await stateOf(attacker, "Marketing")).toBe("unset");
    expect(await stateOf(attacker, "Digest")).toBe("unset");
  });
});

describe("preference center", () => {
  it("lists every group with its state and saves only what the person changed", async () => {
    const id = await newUser("prefs-1");
    await api("POST", p.client("/users/subscriptions"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "prefs-1" }], subscriptions: [{ group: "Digest", state: "unsubscribed" }] },
    });
    const url = (await links(id)).body.preferences_url as string;
    const page = await raw(pathOf(url));
    expect(page.status).toBe(200);
    const html = await htmlOf(page);
    for (const name of ["Marketing", "Digest", "Texts"]) expect(html).toContain(name);
    expect(checkedRadios(html)).toEqual({
      [groups.Digest!]: "unsubscribed",
      [groups.Marketing!]: "subscribed",
      [groups.Texts!]: "subscribed",
    });

    const token = tokenOf(url);
    const res = await raw(
      `/api/preferences/${token}`,
      form({
        [`group:${groups.Marketing}`]: "unsubscribed",
        [`group:${groups.Digest}`]: "subscribed",
        [`group:${groups.Texts}`]: "subscribed",
      }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/preferences/${token}?saved=2`);
    expect(await stateOf(id, "Marketing")).toBe("unsubscribed/preference_center");
    expect(await stateOf(id, "Digest")).toBe("subscribed/preference_center");
    expect(await stateOf(id, "Texts")).toBe("unset"); // untouched: stays unset
    expect(await htmlOf(await raw(res.headers.get("location")!))).toContain("Your preferences are saved.");
  });

  it("unsubscribes from everything at once", async () => {
    const id = await newUser("prefs-2");
    const token = tokenOf((await links(id)).body.preferences_url);
    const res = await raw(`/api/preferences/${token}`, form({ all: "unsubscribed" }));
    expect(res.headers.get("location")).toBe(`/preferences/${token}?saved=3&all=unsubscribed`);
    for (const g of ["Marketing", "Digest", "Texts"])
      expect(await stateOf(id, g)).toBe("unsubscribed/preference_center");
    const user = await api("GET", p.admin(`/users/${id}`), { key: p.keys.support });
    expect(user.body.subscriptions.every((s: any) => s.history[0].source === "preference_center")).toBe(true);
  });

  it("refuses a tampered or wrong-purpose token: 404 page, and a save changes nothing", async () => {
    const victim = await newUser("prefs-victim");
    const mine = await newUser("prefs-attacker");
    const token = tokenOf((await links(mine)).body.preferences_url);
    const [body, sig] = token.split(".") as [string, string];
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), u: victim })).toString("base64url")}.${sig}`;
    const unsubscribeToken = tokenOf((await links(victim, "Marketing")).body.unsubscribe_url);
    for (const bad of [forged, unsubscribeToken, body, "x.y"]) {
      expect((await raw(`/preferences/${bad}`)).status).toBe(404);
      const res = await raw(`/api/preferences/${bad}`, form({ all: "unsubscribed" }));
      expect(res.headers.get("location")).toBe(`/preferences/${bad}?error=1`);
    }
    for (const g of ["Marketing", "Digest", "Texts"]) expect(await stateOf(victim, g)).toBe("unset");
  });
});
