import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { withLogContext } from "./log-context";
import { createLogger, scrubSecrets } from "./logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: createLogger(stream), lines };
}

describe("logger", () => {
  it("redacts credentials in objects and in strings", () => {
    const { log, lines } = capture();
    log.info(
      {
        headers: { authorization: "Bearer rk_abcdef123456_secret", cookie: "authjs.session-token=abc" },
        apiKey: "rk_x",
        token: "t0k",
      },
      "key rk_abcdef1234567890 used",
    );
    log.error({ err: new Error("connect to postgres://relay:hunter2@db:5432/relay failed") }, "down");
    const text = JSON.stringify(lines);
    for (const secret of [
      "rk_abcdef123456_secret",
      "authjs.session-token=abc",
      "rk_abcdef1234567890",
      "t0k",
      "hunter2",
    ])
      expect(text).not.toContain(secret);
    expect((lines[0]!.headers as Record<string, string>).authorization).toBe("[redacted]");
    expect(lines[0]!.msg).toBe("key rk_[redacted] used");
    expect(String((lines[1]!.err as { message: string }).message)).toContain("postgres://relay:[redacted]@db");
  });

  it("puts the request or job id of the running context on every line, nested calls included", async () => {
    const { log, lines } = capture();
    const inner = async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.info("deep");
    };
    await withLogContext({ reqId: "req-1" }, async () => {
      log.info("start");
      await inner();
    });
    await withLogContext({ jobId: "job-9", queue: "pipeline.lists" }, inner);
    log.info("outside");
    expect(lines.map((l) => [l.msg, l.reqId, l.jobId])).toEqual([
      ["start", "req-1", undefined],
      ["deep", "req-1", undefined],
      ["deep", undefined, "job-9"],
      ["outside", undefined, undefined],
    ]);
  });

  it("scrubs token paths and query secrets", () => {
    expect(scrubSecrets("/l/eyJhbGciOiJIUzI1NiJ9.abcdefghijklmnop")).toBe("/l/[redacted]");
    expect(scrubSecrets("/auth/confirm?token=abc&email=a")).toBe("/auth/confirm?token=[redacted]&email=a");
  });
});
