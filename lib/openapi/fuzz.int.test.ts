import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestProject, type TestProject } from "@/scripts/test/helpers";
import { mulberry32 } from "@/scripts/test/prng";
import { addToRoster, createTestAdmin, type TestAdmin } from "@/scripts/test/sessions";

/*
 * Property-style fuzzing of every operation the OpenAPI document lists (issue 9): hostile bodies (5,000
 * levels deep, over the size limit, random JSON, schema-shaped bodies with hostile field values,
 * malformed text), hostile path and query parameters, each sent with a credential that gets past
 * authentication, so parsing and the verbs are what answer. The property: no answer is a 5xx.
 *
 * The generator is hand-made for hostile HTTP bodies and parameters; a seeded PRNG (mulberry32,
 * scripts/test/prng.ts) makes every run reproducible; FUZZ_SEED picks another sequence, FUZZ_ROUNDS more
 * random bodies per operation.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 3);

const rand = mulberry32(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const HOSTILE_STRINGS = [
  "",
  " ",
  "x".repeat(5000),
  "\u0000",
  "\ud800",
  "a\nb\r\nc\t",
  "%0A%0D",
  "../../etc/passwd",
  "' or 1=1 --",
  "<script>alert(1)</script>",
  `a@${".".repeat(20000)}@`,
  "1 second",
  "-1 month",
  "9999999 years",
  "NaN",
  "null",
  "{}",
  "__proto__",
  "constructor",
  "😀".repeat(300),
  "2100-01-01T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "00000000-0000-0000-0000-000000000000",
  `rk_${"a".repeat(60)}`,
];
const HOSTILE_NUMBERS = [0, -1, 1.5, -0, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MIN_VALUE];

function randomJson(depth = 0): unknown {
  const r = rand();
  if (depth > 5 || r < 0.3) return pick([...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, true, false, null] as unknown[]);
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 5) }, () => randomJson(depth + 1));
  const keys = [
    "name",
    "identifier",
    "data",
    "rules",
    "email",
    "interval",
    "match",
    "all",
    "any",
    "event",
    "__proto__",
    pick(HOSTILE_STRINGS).slice(0, 40),
  ];
  return Object.fromEntries(Array.from({ length: Math.floor(rand() * 6) }, () => [pick(keys), randomJson(depth + 1)]));
}

const deepArrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/** A body shaped like the operation's schema (so it passes the outer checks) with hostile values inside. */
function shapedBody(schema: Schema | undefined, resolve: (s: Schema) => Schema, depth = 0): unknown {
  if (!schema || depth > 8) return randomJson(4);
  const s = resolve(schema);
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alt?.length) return shapedBody(pick(alt), resolve, depth + 1);
  if (s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s.properties))
      out[k] = rand() < 0.3 ? hostileValue() : shapedBody(v, resolve, depth + 1);
    return out;
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "array")
    return rand() < 0.2 ? Array.from({ length: 2000 }, () => 1) : [shapedBody(s.items, resolve, depth + 1)];
  if (type === "string") return pick(HOSTILE_STRINGS);
  if (type === "number" || type === "integer") return pick(HOSTILE_NUMBERS);
  if (type === "boolean") return rand() < 0.5;
  return hostileValue();
}

function hostileValue(): unknown {
  const r = rand();
  if (r < 0.15) return JSON.parse(deepArrays(40));
  if (r < 0.3) return { all: [{ any: [{ all: [{ any: [] }] }] }] };
  return randomJson(3);
}

const PARAM_VALUES = [
  "00000000-0000-7000-8000-000000000000",
  "not-a-uuid",
  "%0A%0D%09",
  "x".repeat(3000),
  "..%2F..",
  "%00",
  "-1",
  "null",
];
const QUERY_VALUES = ["-1", "0", "1e309", "999999999999", "%7B%7B%7B", "%00", "x".repeat(3000), "%ZZ", "[]", "null"];

interface Operation {
  method: string;
  path: string;
  sessionOnly: boolean;
  params: { name: string; in: string }[];
  body?: Schema;
  /**
   * The health probes' 503 reports the service's state (no worker heartbeat while no test worker runs),
   * whatever the input: not a failure here. Every other operation's 5xx is.
   */
  probe: boolean;
}

let p: TestProject;
let admin: TestAdmin;
const ops: Operation[] = [];
let components: Record<string, Schema> = {};

beforeAll(async () => {
  p = await createTestProject("fuzz");
  admin = await createTestAdmin();
  await addToRoster(p.projectId, admin.id, "admin");
  const doc = await (await fetch(`${baseUrl}/api/openapi.json`)).json();
  components = doc.components?.schemas ?? {};
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const security: Record<string, unknown>[] = op.security ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        sessionOnly: security.length > 0 && security.every((s) => "session" in s),
        params: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema,
        probe: path.startsWith("/api/health/"),
      });
    }
  }
});

const resolve = (s: Schema): Schema => (s.$ref ? (components[s.$ref.split("/").pop()!] ?? {}) : s);

function urlFor(op: Operation, hostileParams: boolean): string {
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "projectID" && !hostileParams) return p.projectId;
    return hostileParams ? pick(PARAM_VALUES) : "00000000-0000-7000-8000-000000000000";
  });
  const query = op.params.filter((x) => x.in === "query");
  if (query.length && rand() < 0.7)
    path += `?${query.map((q) => `${encodeURIComponent(q.name)}=${pick(QUERY_VALUES)}`).join("&")}`;
  return path;
}

const totals = { requests: 0, byStatus: {} as Record<string, number> };
const failures: string[] = [];

async function send(op: Operation, path: string, body: string | undefined, contentType = "application/json") {
  // A console session writes from our own origin; a key is a server's and sends no Origin (a key refuses
  // every Origin it does not list, so sending one would stop each request before its handler).
  const headers: Record<string, string> = op.sessionOnly
    ? { origin: baseUrl, cookie: admin.cookie }
    : { authorization: `Bearer ${p.keys.admin}` };
  if (body !== undefined) headers["content-type"] = contentType;
  let status: number;
  try {
    const res = await fetch(baseUrl + path, {
      method: op.method,
      headers,
      body: op.method === "GET" ? undefined : body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    status = res.status;
  } catch (err) {
    status = 599;
    failures.push(`${op.method} ${path.slice(0, 200)}: ${(err as Error).message}`);
  }
  totals.requests++;
  const bucket = `${status}`;
  totals.byStatus[bucket] = (totals.byStatus[bucket] ?? 0) + 1;
  if (status >= 500 && status !== 599 && !(op.probe && status === 503))
    failures.push(
      `${op.method} ${path.slice(0, 200)} -> ${status} (body ${body === undefined ? "none" : body.slice(0, 120)})`,
    );
}

describe("fuzzing every operation of the OpenAPI document", () => {
  it("answers no hostile request with a 5xx", async () => {
    expect(ops.length).toBeGreaterThan(50);
    const started = Date.now();
    const oversized = JSON.stringify({ data: { x: "a".repeat(1_100_000) } });
    for (const op of ops) {
      const withBody = op.method !== "GET" && op.method !== "DELETE" ? true : op.body !== undefined;
      await send(op, urlFor(op, true), withBody ? "{}" : undefined);
      if (op.method === "GET") {
        for (let i = 0; i < ROUNDS; i++) await send(op, urlFor(op, i > 0), undefined);
        continue;
      }
      await send(op, urlFor(op, false), deepArrays(5000));
      await send(op, urlFor(op, false), deepObjects(5000));
      await send(op, urlFor(op, false), oversized);
      await send(op, urlFor(op, false), '{"a": [1, 2,', "application/json");
      await send(op, urlFor(op, false), "a=1&b=%ZZ", "application/x-www-form-urlencoded");
      for (let i = 0; i < ROUNDS; i++) {
        await send(op, urlFor(op, false), JSON.stringify(randomJson()));
        await send(op, urlFor(op, false), JSON.stringify(shapedBody(op.body, resolve)));
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `[fuzz] seed ${SEED}: ${ops.length} operations, ${totals.requests} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(totals.byStatus)}`,
    );
    expect(failures).toEqual([]);
  }, 120_000); // bounded: ~10 requests per operation (well under 60 s on an idle machine)
});
