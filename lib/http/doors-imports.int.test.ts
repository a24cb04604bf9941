import { Agent, fetch as undiciFetch } from "undici";
import { describe, expect, it } from "vitest";
import { sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { call, doorsServerForFile, freshAddress, p, server } from "../../test/fixtures/doors";

// Door 8 of issue 33, against a server of this file's own with small import caps (test/fixtures/doors.ts).
doorsServerForFile("doors-imports");

describe("imports per project", () => {
  const upload = (body: BodyInit) =>
    call("POST", p.admin("/imports?kind=users"), {
      key: p.keys.client,
      body,
      headers: { "content-type": "text/csv" },
    });

  /** The init of a POST that streams `stream` as CSV with the client key, from an address of its own. */
  const streamedCsv = (stream: ReadableStream<Uint8Array>) => ({
    method: "POST",
    headers: {
      authorization: `Bearer ${p.keys.client}`,
      "content-type": "text/csv",
      "x-forwarded-for": freshAddress(),
    },
    body: stream,
    duplex: "half" as const,
  });

  /** An upload that sends `head`, then waits for `release()` before sending `tail`: it stays `uploading`. */
  function heldUpload(head: string, tail = "") {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        await gate;
        if (tail) controller.enqueue(new TextEncoder().encode(tail));
        controller.close();
      },
    });
    const response = undiciFetch(server.url + p.admin("/imports?kind=users"), {
      ...streamedCsv(stream),
      // A connection of its own: a streamed body cannot be retried on a kept-alive socket the server just closed.
      dispatcher: new Agent(),
    });
    return { release, response };
  }
  const uploading = async (minBytes = 0) =>
    (
      await sql`select id, bytes from imports where project_id = ${p.projectId} and state = 'uploading' and bytes >= ${minBytes}`
    ).length;
  const big = (rows: number, prefix: string) =>
    `external_id,data.pad\n${Array.from({ length: rows }, (_, i) => `${prefix}-${i},${"x".repeat(1000)}`).join("\n")}\n`;

  it("8. at most 2 unfinished imports (429 + Retry-After), and a bounded number of stored bytes", async () => {
    // Two uploads still streaming are unfinished imports (a worker of another test file cannot finish them).
    const held = [heldUpload("external_id\ncap-1\n"), heldUpload("external_id\ncap-2\n")];
    await waitFor(async () => (await uploading()) === 2, 30_000, "two uploads under way");
    const third = await upload("external_id\ncap-3\n");
    expect(third.status).toBe(429);
    expect(third.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const h of held) h.release();
    for (const h of held) {
      const res = await h.response;
      expect(res.status).toBe(202);
      await call("DELETE", p.admin(`/imports/${((await res.json()) as { id: string }).id}`), { key: p.keys.client });
    }

    // A file larger than the project may hold at all: 413 while streaming, nothing kept.
    const tooBig = await upload(big(4000, "huge"));
    expect(tooBig.status).toBe(413);
    // About 2 MiB of the 3 MiB stored by an upload under way: the next 1.5 MiB does not fit.
    const first = heldUpload(big(2100, "half"));
    await waitFor(async () => (await uploading(2 * 1024 * 1024)) === 1, 30_000, "2 MiB stored");
    const second = await upload(big(1500, "more"));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    const [chunks] =
      await sql`select coalesce(sum(octet_length(bytes)), 0)::int as b from import_chunks where project_id = ${p.projectId}`;
    expect(chunks!.b).toBeLessThanOrEqual(3 * 1024 * 1024);
    first.release();
    const done = await first.response;
    expect(done.status).toBe(202);
    await call("DELETE", p.admin(`/imports/${((await done.json()) as { id: string }).id}`), { key: p.keys.client });
  });

  it("an upload cancelled while streaming stays cancelled, with no chunks", async () => {
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    const line = `${"y".repeat(1000)}\n`;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const enc = new TextEncoder();
        controller.enqueue(enc.encode("external_id,data.pad\n"));
        for (let i = 0; i < 1100; i++) controller.enqueue(enc.encode(`race-${i},${line}`));
        await gate;
        for (let i = 1100; i < 1500; i++) controller.enqueue(enc.encode(`race-${i},${line}`));
        controller.close();
      },
    });
    const pending = fetch(server.url + p.admin("/imports?kind=users"), streamedCsv(stream) as RequestInit);
    const [row] = await waitFor(
      async () => {
        const r =
          await sql`select id from imports where project_id = ${p.projectId} and state = 'uploading' and bytes > 0`;
        return r.length ? r : null;
      },
      30_000,
      "the upload under way",
    );
    const cancelled = await call("DELETE", p.admin(`/imports/${row!.id}`), { key: p.keys.client });
    expect(cancelled.body.state).toBe("cancelled");
    resume();
    const res = await pending;
    expect(res.status).toBe(422);
    const [after] = await sql`select state from imports where project_id = ${p.projectId} and id = ${row!.id}`;
    expect(after!.state).toBe("cancelled");
    const [chunks] = await sql`select count(*)::int as n from import_chunks where import_id = ${row!.id}`;
    expect(chunks!.n).toBe(0);
  });
});
