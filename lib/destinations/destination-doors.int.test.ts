import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { pruneDeliveries } from "./prune-deliveries";

/*
 * The destination doors of issue 43, tried from outside with API keys against the real server: the
 * address rule (only global addresses), the per-project cap, capped health figures, a delivery-log page
 * of bounded size, masked URLs (answers and request log), retry of a delivered message as a replay, and
 * pruning of a disabled destination's pending messages. No worker runs against these destinations:
 * each is created off, or its messages are not due.
 */
let p: TestProject;

const create = (body: Record<string, unknown>, t: TestProject = p, key = t.keys.editor) =>
  api("POST", t.admin("/destinations"), { key, body: { name: "d", events: ["Nothing"], enabled: false, ...body } });

/** `n` messages of the destination in `state`, made `daysAgo` days ago (not due), each with `attempts` attempts. */
async function seed(
  destinationId: string,
  opts: {
    n: number;
    state: "pending" | "delivered" | "failed";
    daysAgo?: number;
    attempts?: number;
    response?: string;
  },
) {
  const { n, state, daysAgo = 0, attempts = 1, response = "ok" } = opts;
  const rows = await sql`
    with made as (
      insert into destination_deliveries (project_id, destination_id, event_name, payload, state, next_attempt_at, created_at, finished_at)
      select ${p.projectId}::uuid, ${destinationId}::uuid, 'Seeded', '{}'::jsonb, ${state}, now() + interval '1 day',
        now() - make_interval(days => ${daysAgo}) + make_interval(secs => i), case when ${state} <> 'pending' then now() end
      from generate_series(1, ${n}) i
      returning project_id, id, destination_id),
    tried as (
      insert into destination_attempts (project_id, delivery_id, destination_id, attempted_at, status, latency_ms, response)
      select project_id, id, destination_id, now() - make_interval(secs => k), 200, 1, ${response}
      from made, generate_series(1, ${attempts}) k)
    select id from made`;
  return rows.map((r) => r.id as string);
}

beforeAll(async () => {
  p = await createTestProject("destination-doors");
});

describe("only global addresses", () => {
  // Every range docs/destinations.md names, in a literal URL (the server lists 127.0.0.1 and localhost).
  it.each([
    "127.0.0.2",
    "0.0.0.1",
    "10.1.2.3",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",
    "169.254.169.254",
    "192.0.0.1",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "192.88.99.1",
    "198.18.0.1",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "[::1]",
    "[::]",
    "[::127.0.0.1]",
    "[::a9fe:a9fe]",
    "[::ffff:10.0.0.1]",
    "[::ffff:a9fe:a9fe]",
    "[64:ff9b::a9fe:a9fe]",
    "[64:ff9b:1::a00:1]",
    "[2002:a9fe:a9fe::1]",
    "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
    "[2001:2::1]",
    "[100::1]",
    "[2001:db8::1]",
    "[3fff::1]",
    "[fe80::1]",
    "[fd00::1]",
    "[fc00::1]",
    "[ff02::1]",
  ])("refuses https://%s/ with 400 naming url, writing nothing", async (host) => {
    const url = `https://${host}/hook`;
    const res = await create({ url });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("url");
    expect(res.body.errors[0].message).toMatch(/not a global address/);
    expect(await sql`select id from destinations where project_id = ${p.projectId} and url = ${url}`).toEqual([]);
  });

  it.each(["93.184.216.34", "[2606:4700::1111]", "[::ffff:93.184.216.34]"])("accepts https://%s/", async (host) => {
    const res = await create({ url: `https://${host}/hook` });
    expect(res.status).toBe(201);
    expect((await api("DELETE", p.admin(`/destinations/${res.body.id}`), { key: p.keys.editor })).status).toBe(204);
  });
});

describe("the per-project cap", () => {
  it("holds at most 50 destinations, also when created at once; the one past it is 422 naming the limit", async () => {
    const q = await createTestProject("destination-cap");
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, (_, j) => create({ name: `d${i * 5 + j}`, url: "https://example.com/h" }, q)),
        ).then((rs) => rs.map((r) => r.status))),
      );
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    const past = await create({ url: "https://example.com/h" }, q);
    expect(past.status).toBe(422);
    expect(past.headers.get("content-type")).toContain("application/problem+json");
    expect(past.body.detail).toContain("at most 50 destinations");
    expect(past.body.detail).toContain("DESTINATIONS_PER_PROJECT");
    const [held] = await sql`select count(*)::int as n from destinations where project_id = ${q.projectId}`;
    expect(held!.n).toBe(50);
  });
});

describe("health and the delivery log stay cheap to read", () => {
  it("counts attempts and backlog up to 10,000", async () => {
    const d = (await create({ url: "https://example.com/busy" })).body;
    await seed(d.id, { n: 10_050, state: "pending" });
    const got = await api("GET", p.admin(`/destinations/${d.id}`), { key: p.keys.support });
    expect(got.body.health).toMatchObject({ attempts_24h: 10_000, backlog: 10_000, success_rate_24h: 1 });
    const list = await api("GET", p.admin("/destinations"), { key: p.keys.support });
    expect(list.body.data.find((x: { id: string }) => x.id === d.id).health.backlog).toBe(10_000);
  }, 120_000);

  it("serves a page of at most 50 messages, each with its newest 5 attempts, well under a megabyte", async () => {
    const d = (await create({ url: "https://example.com/chatty" })).body;
    // Answers of control bytes: JSON escapes each into six.
    await seed(d.id, { n: 60, state: "failed", attempts: 20, response: "\u0001".repeat(1024) });
    const res = await fetch(baseUrl + p.admin(`/destinations/${d.id}/deliveries?limit=50`), {
      headers: { authorization: `Bearer ${p.keys.support}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(1024 * 1024);
    const page = JSON.parse(text);
    expect(page.data).toHaveLength(50);
    expect(page.data[0].attempts).toHaveLength(5);
    const big = await api("GET", p.admin(`/destinations/${d.id}/deliveries?limit=500`), { key: p.keys.support });
    expect(big.status).toBe(400);
  });
});

describe("secret-bearing URLs", () => {
  const url = "https://hooks.example.com/services/T000/B000/XXXXwebhooksecret?token=abcdef";
  it("are answered in full at create only, masked after, and kept whole when sent back masked", async () => {
    const made = await create({ url });
    expect(made.status).toBe(201);
    expect(made.body.url).toBe(url);
    const got = await api("GET", p.admin(`/destinations/${made.body.id}`), { key: p.keys.support });
    expect(got.body.url).toBe("https://hooks.example.com/services/…?…");
    const list = await api("GET", p.admin("/destinations"), { key: p.keys.support });
    expect(JSON.stringify(list.body)).not.toContain("XXXXwebhooksecret");
    const patched = await api("PATCH", p.admin(`/destinations/${made.body.id}`), {
      key: p.keys.editor,
      body: { url: got.body.url, name: "renamed" },
    });
    expect(patched.status).toBe(200);
    const [row] = await sql`select url, name from destinations where id = ${made.body.id}`;
    expect(row).toEqual({ url, name: "renamed" });
  });

  it("are masked in the request log's bodies", async () => {
    const refused = await create({ url, events: [] });
    expect(refused.status).toBe(400);
    const rows = await waitFor(
      async () => {
        const r = await sql`select body from api_requests where project_id = ${p.projectId} and status = 400
          and body like '%hooks.example.com%'`;
        return r.length ? r : null;
      },
      15_000,
      "the refused create in the request log",
    );
    for (const r of rows) expect(r.body).not.toContain("XXXXwebhooksecret");
  });
});

describe("retry of a delivered message", () => {
  it("is a replay: an editor may retry a failed message but not a delivered one; an admin may", async () => {
    const d = (await create({ url: "https://example.com/retry" })).body;
    const [delivered] = await seed(d.id, { n: 1, state: "delivered" });
    const [failed] = await seed(d.id, { n: 1, state: "failed" });
    const retry = (id: string, key: string) =>
      api("POST", p.admin(`/destinations/${d.id}/deliveries/${id}/retry`), { key });
    const byEditor = await retry(delivered!, p.keys.editor);
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.detail).toContain("admin");
    const [still] = await sql`select state from destination_deliveries where id = ${delivered!}`;
    expect(still!.state).toBe("delivered");
    expect((await retry(failed!, p.keys.editor)).status).toBe(202);
    expect((await retry(delivered!, p.keys.admin)).status).toBe(202);
  });
});

describe("pending messages of a disabled destination", () => {
  it("are pruned like finished ones; an enabled destination's are kept", async () => {
    const off = (await create({ url: "https://example.com/off" })).body;
    const on = (await create({ url: "https://example.com/on", enabled: true })).body;
    await seed(off.id, { n: 4, state: "pending", daysAgo: 40 });
    await seed(on.id, { n: 3, state: "pending", daysAgo: 40 });
    const { getDb } = await import("../../db/client");
    await pruneDeliveries({ db: getDb() });
    const left = await sql`select destination_id, count(*)::int as n from destination_deliveries
      where destination_id in (${off.id}, ${on.id}) group by destination_id`;
    expect(Object.fromEntries(left.map((r) => [r.destination_id, r.n]))).toEqual({ [on.id]: 3 });
    await api("PATCH", p.admin(`/destinations/${on.id}`), { key: p.keys.editor, body: { enabled: false } });
  });
});
