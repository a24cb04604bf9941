import fc from "fast-check";
import { deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

/*
 * A bounded fuzz run of the doors issue 33 opened: /v1/* with any body, content type and encoding;
 * import uploads of any content; the request log's reader with any query. No answer may be a 5xx, and the
 * worker must finish (or fail) every import it was given without crashing.
 */
let p: TestProject;
let worker: TestWorker;
beforeAll(async () => {
  p = await createTestProject("doors-fuzz");
  worker = await startWorker(inject("databaseUrl"), {
    IMPORT_POLL_MS: "100",
    NODE_OPTIONS: "--max-old-space-size=512",
  });
}, 200_000);
afterAll(() => worker?.stop("SIGKILL"));

const SEED = Number(process.env.FUZZ_SEED ?? 33);
const runs = (n: number) => ({ numRuns: n, seed: SEED, endOnFailure: true });

const segmentish = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.record({
    type: fc.constantFrom("track", "identify", "group", "alias", "page", "screen", "bogus"),
    userId: fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.constant(null)),
    event: fc.string({ maxLength: 30 }),
    properties: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
  }),
);
const encodings = fc.constantFrom(undefined, "gzip", "deflate", "identity", "br", "gzip, deflate", "x-gzip", "zstd");
const contentTypes = fc.constantFrom(undefined, "application/json", "text/plain", "application/x-www-form-urlencoded");

async function send(path: string, body: Uint8Array | string, headers: Record<string, string | undefined>) {
  const h: Record<string, string> = { authorization: `Bearer ${p.keys.client}` };
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) h[k] = v;
  const res = await fetch(baseUrl + path, { method: "POST", headers: h, body: body as BodyInit });
  await res.arrayBuffer();
  return res.status;
}

describe("fuzz: no 5xx", () => {
  it("/v1/* with any body, content type and Content-Encoding", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("batch", "track", "identify", "group", "alias", "page", "screen"),
        fc.oneof(
          segmentish.map((m) => ({ batch: [m] })),
          segmentish,
        ),
        encodings,
        contentTypes,
        fc.boolean(), // compress as labelled, or send plain bytes under the label
        fc.uint8Array({ maxLength: 64 }),
        async (type, message, encoding, contentType, honest, junk) => {
          const text = JSON.stringify(message) ?? "null";
          let body: Uint8Array | string = honest ? text : junk;
          if (honest && (encoding === "gzip" || encoding === "x-gzip")) body = gzipSync(text);
          if (honest && encoding === "deflate") body = deflateSync(text);
          const status = await send(`/v1/${type}`, body, {
            "content-type": contentType,
            "content-encoding": encoding,
          });
          expect(status).toBeLessThan(500);
        },
      ),
      runs(150),
    );
  }, 300_000);

  it("imports of any content; the worker settles every one", async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc
        .record({
          identifier: fc.array(fc.record({ external_id: fc.string({ maxLength: 20 }) }), { maxLength: 3 }),
          data: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
          email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 10 })),
        })
        .map((v) => JSON.stringify(v)),
      fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }).map((cells) => cells.join(",")),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("text/csv", "application/x-ndjson", "application/json"),
        fc.constantFrom("users", "organizations", "memberships"),
        fc.constantFrom(
          "",
          "external_id\n",
          "external_id,email,data.x\n",
          "organization_external_id,user_external_id\n",
        ),
        fc.array(line, { maxLength: 20 }),
        encodings,
        async (contentType, kind, header, lines, encoding) => {
          const text = header + lines.join("\n");
          const body = encoding === "gzip" ? gzipSync(text) : encoding === "deflate" ? deflateSync(text) : text;
          const status = await send(`${p.admin("/imports")}?kind=${kind}`, body, {
            "content-type": contentType,
            "content-encoding": encoding,
          });
          expect(status).toBeLessThan(500);
          if (status === 429) await new Promise((r) => setTimeout(r, 200)); // the cap: let the worker catch up
        },
      ),
      runs(60),
    );
    await waitFor(
      async () =>
        (
          await sql`select count(*)::int as n from imports where project_id = ${p.projectId} and state in ('uploading', 'queued', 'running')`
        )[0]!.n === 0,
      120_000,
      "every import settled",
    );
    expect(worker.child.exitCode).toBeNull();
    expect(worker.output()).not.toMatch(/worker crashed|heap out of memory/);
  }, 300_000);

  it("the request log's reader with any query", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("limit", "cursor", "status", "key_id", "since", "x"),
          fc.oneof(fc.string({ maxLength: 40 }), fc.integer().map(String), fc.constantFrom("4xx", "failed", "429")),
          { maxKeys: 4 },
        ),
        async (query) => {
          const res = await api("GET", `${p.admin("/requests")}?${new URLSearchParams(query)}`, {
            key: p.keys.support,
          });
          expect(res.status).toBeLessThan(500);
          if (res.status === 200)
            for (const row of res.body.data) expect(JSON.stringify(row).length).toBeLessThan(16 * 1024);
        },
      ),
      runs(80),
    );
  }, 120_000);
});
