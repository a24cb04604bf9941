import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createGzip, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { sql } from "../../scripts/test/helpers";
import { call, doorsServerForFile, p } from "../../test/fixtures/doors";

// Door 6 of issue 33, against a server of this file's own (test/fixtures/doors.ts).
doorsServerForFile("doors-compressed-bodies");

const eventCount = async (name: string) =>
  (
    await sql`select (select count(*) from event_intake where project_id = ${p.projectId} and name = ${name})
      + (select count(*) from events where project_id = ${p.projectId} and name = ${name}) as n`
  )[0]!.n as string;

describe("6. compressed bodies", () => {
  it("accepts gzip and deflate on JSON endpoints, refuses other encodings with 415 and a bomb with 413", async () => {
    const batch = { batch: [{ type: "track", userId: "gz-1", event: "Gzipped", properties: { n: 1 } }] };
    const gz = await call("POST", "/v1/batch", {
      key: p.keys.client,
      body: gzipSync(JSON.stringify(batch)),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(gz.status).toBe(200);
    expect(Number(await eventCount("Gzipped"))).toBe(1);

    const user = await call("POST", p.client("/users"), {
      key: p.keys.client,
      body: deflateSync(JSON.stringify({ identifier: [{ external_id: "deflated-1" }], data: { ok: true } })),
      headers: { "content-type": "application/json", "content-encoding": "deflate" },
    });
    expect(user.status).toBe(201);
    expect(user.body.data).toEqual({ ok: true });

    const br = await call("POST", p.client("/users"), {
      key: p.keys.client,
      body: JSON.stringify({ identifier: [{ external_id: "br-1" }] }),
      headers: { "content-type": "application/json", "content-encoding": "br" },
    });
    expect(br.status).toBe(415);
    expect(br.headers.get("content-type")).toBe("application/problem+json");

    const corrupt = await call("POST", p.client("/users"), {
      key: p.keys.client,
      body: Buffer.from("not gzip at all"),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(corrupt.status).toBe(400);

    // 512 MiB of zeros in about half a megabyte: it must be refused once 1 MiB has come out.
    const bomb = await buffer(
      Readable.from(
        (function* () {
          for (let i = 0; i < 512; i++) yield Buffer.alloc(1024 * 1024);
        })(),
      ).pipe(createGzip()),
    );
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const refused = await call("POST", "/v1/batch", {
      key: p.keys.client,
      body: bomb,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(refused.status).toBe(413);
    expect(refused.body.detail).toMatch(/1 MiB/);
    // The server is no worse for it.
    expect((await call("GET", "/api/health/live")).status).toBe(200);
  });
});
