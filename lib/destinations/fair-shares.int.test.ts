import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, ownDatabaseForFile, sql, type TestProject } from "../../scripts/test/helpers";
import { startReceiver } from "../../scripts/test/webhook-receiver";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

/*
 * A worker's in-flight budget (DESTINATION_MAX_IN_FLIGHT, 4,096) is shared by project, then by destination
 * within a project, with a share always left for one more: more dead receivers than the budget holds at
 * 256 each (seventeen would fill it) never take the slots a healthy destination needs, in their own
 * project or another. The real server, a real worker with the default 10 s attempt timeout, receivers on
 * 127.0.0.1 that never answer.
 */
ownDatabaseForFile("relay_fair_shares");

const SILENT = 20;
/** More than a destination's 256 slots each: before shares, twenty of them claimed the whole budget. */
const WAITING = 300;
let p: TestProject;
let q: TestProject;
let worker: TestWorker;
const silent: Server[] = [];
/** When the first request reached a silent receiver, and when the first ended (the sender gave it up). */
let firstArrived = Number.POSITIVE_INFINITY;
let firstGivenUp = Number.POSITIVE_INFINITY;
let open = 0;

beforeAll(async () => {
  [p, q] = await Promise.all([createTestProject("fair-dead"), createTestProject("fair-other")]);
  worker = await startWorker(process.env.DATABASE_URL!, {
    DESTINATIONS_ALLOW_HOSTS: "127.0.0.1,localhost",
    DESTINATION_POLL_MS: "100",
  });
});

afterAll(async () => {
  await worker?.stop("SIGKILL");
  for (const s of silent) {
    s.closeAllConnections();
    s.close();
  }
});

async function startSilent() {
  const server = createServer((req) => {
    open++;
    firstArrived = Math.min(firstArrived, Date.now());
    req.socket.once("close", () => {
      open--;
      firstGivenUp = Math.min(firstGivenUp, Date.now());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  silent.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/silent`;
}

/** `n` messages due now for destination `d` of project `t`, queued as the pipeline would. */
async function queue(t: TestProject, d: string, n: number) {
  await sql`insert into destination_deliveries (project_id, destination_id, event_name, next_attempt_at, payload)
    select ${t.projectId}::uuid, ${d}::uuid, 'Queued', now(),
      jsonb_build_object('type', 'Queued', 'timestamp', now(), 'data', jsonb_build_object('i', i))
    from generate_series(1, ${n}) i`;
  await sql`select pg_notify('relay_destinations', '')`;
}

/** Messages of project `t` claimed and not yet decided (leased: due again only after the claim's lease). */
const claimed = async (t: TestProject) =>
  (
    await sql`select count(*)::int as n from destination_deliveries
      where project_id = ${t.projectId} and state = 'pending' and next_attempt_at > now()`
  )[0]!.n as number;

describe("the in-flight budget shared by project and destination", () => {
  it(`${SILENT} silent receivers with ${WAITING} messages each hold up no healthy destination, in their project or another`, async () => {
    const dead: string[] = [];
    for (let i = 0; i < SILENT; i++) {
      const made = await api("POST", p.admin("/destinations"), {
        key: p.keys.editor,
        body: { name: `silent-${i}`, url: await startSilent(), events: ["Silent"] },
      });
      expect(made.status).toBe(201);
      dead.push(made.body.id);
    }
    const arrived = new Map<string, number>();
    const healthy = await startReceiver();
    healthy.answerWith((r) => {
      arrived.set(r.webhookId, Date.now());
      return 200;
    });
    const healthyIds = new Map<TestProject, string>();
    const secrets: string[] = [];
    for (const t of [p, q]) {
      const made = await api("POST", t.admin("/destinations"), {
        key: t.keys.editor,
        body: { name: "healthy", url: healthy.url(`/healthy-${t.projectId}`), events: ["Healthy"] },
      });
      expect(made.status).toBe(201);
      healthyIds.set(t, made.body.id);
      secrets.push(made.body.secret);
    }
    healthy.setSecrets(secrets);
    try {
      for (const d of dead) await queue(p, d, WAITING);
      // The silent receivers hold all they will be given: their claimed count has stopped growing.
      let last = -1;
      await waitFor(
        async () => {
          const n = await claimed(p);
          const steady = n > 0 && n === last && open >= 16;
          last = n;
          if (!steady) await new Promise((r) => setTimeout(r, 300));
          return steady;
        },
        30_000,
        "the silent receivers' claims",
      );
      for (const [t, d] of healthyIds) await queue(t, d, 200);
      await waitFor(async () => arrived.size >= 400, 60_000, "400 healthy messages");
      // All went out while the silent receivers still held their requests: none needed a slot that a
      // silent attempt gave up after its 10 s timeout.
      expect(Math.max(...arrived.values())).toBeLessThan(firstGivenUp);
      // This worker keeps the default attempt timeout (DESTINATION_ATTEMPT_TIMEOUT, 10 s): a request that is
      // never answered is given up ten seconds after it went out, not sooner and not much later.
      await waitFor(async () => firstGivenUp < Number.POSITIVE_INFINITY, 60_000, "the first silent attempt given up");
      expect(firstGivenUp - firstArrived).toBeGreaterThanOrEqual(9_500);
      expect(firstGivenUp - firstArrived).toBeLessThan(20_000);
    } finally {
      await healthy.stop();
    }
  }, 180_000);
});
