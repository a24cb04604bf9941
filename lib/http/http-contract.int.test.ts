import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, snapshotCounts, type TestProject } from "../../scripts/test/helpers";
import { freePort, startNextServer } from "../../scripts/test/next-server";

/** A POST on its own connection (agent: false): the server may close it after refusing an oversized body. */
/**
 * Posts `chunks` over a connection of its own, pausing between chunks, and says whether the answer came
 * before the whole body was sent. A server that answers early and closes resets the connection while the
 * client is still sending, and the client may then see EPIPE or ECONNRESET instead of the answer; the
 * server must read an oversized body to the end (within its drain bounds, lib/http/read-json.ts) first.
 */
function rawPost(
  path: string,
  key: string,
  chunks: string[],
  withLength: boolean,
): Promise<{ status: number; body: string; early: boolean }> {
  const url = new URL(baseUrl + path);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
    };
    if (withLength) headers["content-length"] = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
    let sent = false;
    let early = false;
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent: false },
      (res) => {
        early = !sent;
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body, early }));
      },
    );
    req.on("error", reject);
    (async () => {
      for (const [i, c] of chunks.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 10));
        if (i === chunks.length - 1) {
          // No await between the last bytes and the mark: an answer can only be seen after both.
          sent = true;
          req.end(c);
        } else if (!req.write(c)) await new Promise((r) => req.once("drain", r));
      }
    })().catch(() => {});
  });
}

/** `text` in pieces of 64 KiB. */
const pieces = (text: string) =>
  Array.from({ length: Math.ceil(text.length / 65536) }, (_, i) => text.slice(i * 65536, (i + 1) * 65536));

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("http");
});

/** POST /users with the client key and `raw` as the body, with `contentType` when given (none otherwise). */
const postUsersRaw = (raw: string, contentType?: string) =>
  api("POST", p.client("/users"), {
    key: p.keys.client,
    raw,
    headers: contentType ? { "content-type": contentType } : undefined,
  });

const isProblem = (res: { headers: Headers; body: any }, status: number) => {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body).toMatchObject({
    status,
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
  });
};

describe("HTTP contract", () => {
  it("413 for a body over 1 MiB, with or without Content-Length, answered once the body is read, nothing stored", async () => {
    const before = await snapshotCounts(p.projectId);
    const big = JSON.stringify({ identifier: [{ external_id: "big" }], data: { blob: "x".repeat(1024 * 1024) } });
    const declared = await rawPost(p.client("/users"), p.keys.client, pieces(big), true);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ status: 413, title: "Payload too large" });
    expect(declared.early).toBe(false);
    // Chunked, without a Content-Length: the limit is enforced while reading.
    const chunked = await rawPost(
      p.client("/users"),
      p.keys.client,
      Array.from({ length: 20 }, () => "x".repeat(64 * 1024)),
      false,
    );
    expect(chunked.status).toBe(413);
    expect(chunked.early).toBe(false);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("answers a refused request with a large body (no key) once the body is read, so the client still sending gets the 401", async () => {
    const body = JSON.stringify({ identifier: [{ external_id: "nokey" }], data: { blob: "x".repeat(900 * 1024) } });
    const refused = await rawPost(p.client("/users"), "not-a-key", pieces(body), true);
    expect(refused.status).toBe(401);
    expect(refused.early).toBe(false);
  });

  it("415 when the body is not sent as JSON", async () => {
    const res = await postUsersRaw("identifier=1", "application/x-www-form-urlencoded");
    expect(res.status).toBe(415);
    isProblem(res, 415);
    const none = await postUsersRaw('{"identifier":[{"external_id":"a"}]}');
    expect(none.status).toBe(415);
    // application/json with a charset parameter and +json types are JSON.
    const charset = await postUsersRaw('{"identifier":[{"external_id":"cs"}]}', "application/json; charset=utf-8");
    expect(charset.status).toBe(201);
  });

  it("400 for malformed JSON and for each invalid field, with its path", async () => {
    const broken = await postUsersRaw('{"identifier": [', "application/json");
    expect(broken.status).toBe(400);
    isProblem(broken, 400);
    const res = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: {
        identifier: [{ external_id: "ok" }, { source: "s" }],
        email: "not-an-email",
        phone: "12",
        timezone: "Mars/Base",
        data: [1],
        extra: true,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(
      ["data", "email", "extra", "identifier[1].external_id", "phone", "timezone"].sort(),
    );
  });

  it("400 for strings PostgreSQL cannot store (NUL, lone surrogates) instead of a 500", async () => {
    const nul = await postUsersRaw('{"identifier":[{"external_id":"a\\u0000b"}]}', "application/json");
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0].path).toBe("identifier[0].external_id");
    const surrogate = await postUsersRaw(
      '{"identifier":[{"external_id":"s"}],"data":{"k":"\\ud800"}}',
      "application/json",
    );
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.errors[0].path).toBe("data.k");
  });

  it("enforces the limits: 20 identifiers, 1,024-character strings, 32 KiB data, 1,000 per batch", async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ external_id: `id-${i}` }));
    expect(
      (await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: many } })).body.errors[0].path,
    ).toBe("identifier");
    const long = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "x".repeat(1025) }] },
    });
    expect(long.status).toBe(400);
    const fat = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "fat" }], data: { s: "x".repeat(33 * 1024) } },
    });
    expect(fat.status).toBe(400);
    expect(fat.body.errors[0].path).toBe("data");
    const batch = Array.from({ length: 1001 }, (_, i) => ({ identifier: [{ external_id: `b-${i}` }] }));
    expect((await api("POST", p.client("/users/batch"), { key: p.keys.client, body: batch })).status).toBe(400);
  });

  it("404 problem+json for unknown API paths and unknown record ids", async () => {
    const res = await api("GET", "/api/nothing/here");
    expect(res.status).toBe(404);
    isProblem(res, 404);
    const user = await api("GET", p.admin("/users/not-a-uuid"), { key: p.keys.support });
    expect(user.status).toBe(404);
    isProblem(user, 404);
  });
});

describe("database unavailable", () => {
  let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
  afterAll(async () => server?.stop());

  it("answers 503 problem+json with Retry-After, not a 500, when PostgreSQL is unreachable", async () => {
    // A second server whose database is a closed port: every request must fail cleanly and fast.
    const closed = await freePort();
    const connectTimeoutSeconds = 2;
    server = await startNextServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/none`,
      DATABASE_CONNECT_TIMEOUT: String(connectTimeoutSeconds),
    });
    const started = Date.now();
    const res = await fetch(`${server.url}${p.client("/users")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${p.keys.client}`, "content-type": "application/json" },
      body: JSON.stringify({ identifier: [{ external_id: "down" }] }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("retry-after")).toBe("5");
    // Bounded by the connect timeout it was given, with a wide margin for a loaded machine.
    expect(Date.now() - started).toBeLessThan(connectTimeoutSeconds * 1000 * 5);
  });
});
