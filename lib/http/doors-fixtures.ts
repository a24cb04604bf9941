import { afterAll, beforeAll, inject } from "vitest";
import { createTestProject, type TestProject } from "../../scripts/test/helpers";
import { startNextServer } from "../../scripts/test/next-server";

/*
 * The set-up of the doors-*.int.test.ts files: the doors of issue 33, each tried as the attacker did,
 * against a production server of the test file's own (its own limits: a metrics token, a proxy to trust
 * for caller addresses, small import caps).
 */
export const METRICS_TOKEN = "doors-metrics-token";

// `let`: doorsServerForFile() sets them for the calling file (importers see the new values).
export let outboxPath: string;
export let server: Awaited<ReturnType<typeof startNextServer>>;
export let p: TestProject;

/**
 * Gives the calling test file its own server, writing mail to an outbox file of its own, and a project
 * named `name`. Call it at the top of the file, before any other hook.
 */
export function doorsServerForFile(name: string): void {
  outboxPath = `/tmp/relay-${name}-outbox-${process.pid}.jsonl`;
  beforeAll(async () => {
    server = await startNextServer({
      DATABASE_URL: inject("databaseUrl"),
      RELAY_TEST_OUTBOX: "1",
      OUTBOX_PATH: outboxPath,
      METRICS_TOKEN,
      TRUST_PROXY: "1",
      RATE_LIMIT_IP: "5:5",
      RATE_LIMIT_SIGNIN_IP: "1000/3600",
      RATE_LIMIT_SIGNIN_EMAIL: "5/3600",
      IMPORT_MAX_STORED_BYTES: String(3 * 1024 * 1024),
    });
    p = await createTestProject(name);
  }, 180_000);
  afterAll(() => server?.stop());
}

let ip = 0;
/** A caller address of its own per call unless given: only the budget under test is shared. */
export const freshAddress = () => `10.33.${(++ip >> 8) & 255}.${ip & 255}`;

export async function call(
  method: string,
  path: string,
  opts: { key?: string; body?: BodyInit; json?: unknown; headers?: Record<string, string>; from?: string } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": opts.from ?? freshAddress(), ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(server.url + path, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever the server answered
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers };
}
