import http from "node:http";
import { describe, expect, it } from "vitest";
import { baseUrl } from "../../scripts/test/helpers";
import { createTestAdmin, outboxFor } from "../../scripts/test/sessions";

/*
 * The integration server runs with AUTH_URL = http://127.0.0.1:<port> (scripts/test/next-server.ts) while
 * Next spells its own req.url `localhost`: every URL below must name AUTH_URL's origin, whatever the
 * request's Host or X-Forwarded-Host say.
 */
const origin = new URL(baseUrl).origin;
const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

async function csrf(): Promise<{ csrfToken: string; cookie: string }> {
  const res = await fetch(`${baseUrl}/api/auth/csrf`, { headers: forged });
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return {
    csrfToken,
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

async function requestLink(email: string, callbackUrl: string): Promise<{ res: Response; link: URL }> {
  const { csrfToken, cookie } = await csrf();
  const since = (await outboxFor(email)).length;
  const res = await fetch(`${baseUrl}/api/auth/signin/nodemailer`, {
    method: "POST",
    redirect: "manual",
    headers: { ...forged, "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ email, csrfToken, callbackUrl }),
  });
  const mails = await outboxFor(email);
  expect(mails.length).toBe(since + 1);
  const link = /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mails[0]!.text)![0];
  return { res, link: new URL(link) };
}

/** The confirmation page's POST, then next-auth's callback: the two redirects that end a sign-in. */
async function confirm(link: URL): Promise<{ continued: Response; callback: Response }> {
  const continued = await fetch(`${baseUrl}/auth/confirm/continue`, {
    method: "POST",
    redirect: "manual",
    headers: { ...forged, origin, "content-type": "application/x-www-form-urlencoded" },
    body: link.searchParams,
  });
  const callback = await fetch(continued.headers.get("location")!.replace(origin, baseUrl), {
    redirect: "manual",
    headers: forged,
  });
  return { continued, callback };
}

describe("sign-in by mailed link names the configured origin only (issue 17, 9.3)", () => {
  it("mails a link on AUTH_URL's origin and redirects only there, even with forged Host headers", async () => {
    const admin = await createTestAdmin();
    const { res, link } = await requestLink(admin.email, "/projects");
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).origin).toBe(origin);
    expect(link.origin).toBe(origin);
    expect(new URL(link.searchParams.get("callbackUrl")!, origin).origin).toBe(origin);

    const { continued, callback } = await confirm(link);
    expect(continued.status).toBe(303);
    expect(new URL(continued.headers.get("location")!).origin).toBe(origin);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${origin}/projects`);
    expect(callback.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true);
  });

  it("names AUTH_URL's origin as the OpenAPI document's server, whatever the Host", async () => {
    const doc = (await (await fetch(`${baseUrl}/api/openapi.json`, { headers: forged })).json()) as {
      servers: { url: string }[];
    };
    expect(doc.servers).toEqual([{ url: origin }]);
  });

  it.each(["//evil.example", "/\\evil.example", "https://evil.example/projects"])(
    "lands on /projects for callbackUrl %j (open redirect)",
    async (callbackUrl) => {
      const admin = await createTestAdmin();
      const { link } = await requestLink(admin.email, callbackUrl);
      const { callback } = await confirm(link);
      expect(callback.headers.get("location")).toBe(`${origin}/projects`);
    },
  );

  it("refuses the confirmation POST from `Origin: null` or another site (403), leaving the token unused", async () => {
    const admin = await createTestAdmin();
    const { link } = await requestLink(admin.email, "/projects");
    for (const from of ["null", "https://evil.example"]) {
      const res = await fetch(`${baseUrl}/auth/confirm/continue`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: from, "content-type": "application/x-www-form-urlencoded" },
        body: link.searchParams,
      });
      expect(res.status).toBe(403);
    }
    const { callback } = await confirm(link);
    expect(callback.headers.get("location")).toBe(`${origin}/projects`);
  });

  it("redirects a signed-in person on /signin only to a path of ours", async () => {
    const admin = await createTestAdmin();
    for (const callbackUrl of ["//evil.example", "/\\evil.example", `${origin}/invites`]) {
      const res = await fetch(`${baseUrl}/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`, {
        redirect: "manual",
        headers: { cookie: admin.cookie },
      });
      // A streamed page redirects in its payload (200) rather than with a 307 Location: read whichever came.
      const location =
        res.status === 307 ? res.headers.get("location")! : /NEXT_REDIRECT;\w+;([^;"\\]+);/.exec(await res.text())?.[1];
      expect(location).toBeDefined();
      const target = new URL(location!, origin);
      expect(target.origin).toBe(origin);
      expect(target.pathname).toBe(callbackUrl.endsWith("/invites") ? "/invites" : "/projects");
    }
  });
});

/**
 * A form POST written chunk by chunk with a raw client that takes the answer as soon as it comes: the
 * server may answer 413 and close before the whole body is sent, which fetch reports as a reset.
 */
function rawFormPost(
  path: string,
  chunks: string[],
  withLength: boolean,
): Promise<{ status: number; type: string | undefined }> {
  const url = new URL(baseUrl + path);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": "application/x-www-form-urlencoded", origin };
    if (withLength) headers["content-length"] = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent: false },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode!, type: res.headers["content-type"] });
      },
    );
    req.on("error", reject);
    (async () => {
      for (const c of chunks) if (!req.write(c)) await new Promise((r) => req.once("drain", r));
      req.end();
    })().catch(() => {});
  });
}

describe("bounded bodies on the sign-in doors (9.6)", () => {
  const chunks = ["x=", ...Array.from({ length: 70 }, () => "a".repeat(1024))];

  it.each([
    "/auth/confirm/continue",
    "/api/auth/signin/nodemailer",
    "/api/auth/signout",
    "/api/auth/callback/nodemailer",
  ])("answers 413 past 64 KiB on %s, with or without Content-Length", async (path) => {
    for (const withLength of [true, false]) {
      expect(await rawFormPost(path, chunks, withLength)).toEqual({ status: 413, type: "application/problem+json" });
    }
  });
});
