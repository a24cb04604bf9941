import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  FAST_FAILOVER_SETTINGS,
  type Formation,
  type FormationNode,
  pgAutoctlInstalled,
  startFormation,
  withNode,
} from "../../scripts/ha-formation";
import { SmtpSink } from "../../scripts/test/smtp-sink";
import { startReceiver } from "../../scripts/test/webhook-receiver";
import { startCluster, type Cluster } from "./cluster";
import { verifyDeliveries, waitDelivered } from "./deliveries";
import { type Answer, type Ledger, runLoad, summarize } from "./load";
import { closeTestDb, setUpProject, warmUp } from "./project";
import { addSends, verifySends, waitSent } from "./sends";
import { stopRun, TWO_BY_TWO } from "./two-by-two";
import { verifyLedger, waitSettled } from "./verify";

/*
 * Issue 46: Relay on a pg_auto_failover formation (a monitor, a primary, a synchronous standby on loopback),
 * reached through the multi-host URL only. Two webs and two workers under the mixed load; the primary's
 * keeper and PostgreSQL SIGKILLed together (its machine lost); the monitor promotes the standby. Then a
 * switchover under load. Every promise the answers made is held against the database, every destination
 * message against a loopback receiver, and the journey's steps, its mails and a broadcast due during the
 * fault against the database and an SMTP sink.
 */
const KILL_AT_MS = 5_000;
const SWITCH_AT_MS = 4_000;
const METRICS_TOKEN = "failover-test-metrics-token";

let formation: Formation;
let cluster: Cluster;
let sql: postgres.Sql;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sink: SmtpSink;
let failed = false;
/** The workers' AUTH_URL host: every message's Message-ID is <id@MAIL_HOST>. */
const MAIL_HOST = "relay.failover.test";

/**
 * A project of its own per case (the load numbers its events from 1), with a destination for Purchased, a
 * journey that mails each buyer, and a broadcast to the buyers due `broadcastInMs` from now.
 */
async function project(broadcastInMs: number) {
  // This test process's own pool (setUpProject's) connects afresh, to whichever node is the primary now:
  // connections it opened before a failover or switchover may have gone to a node that is not.
  await closeTestDb();
  const setup = await setUpProject(formation.url, cluster.webs[0]!.url);
  const res = await fetch(`${cluster.webs[0]!.url}/api/admin/projects/${setup.projectId}/destinations`, {
    method: "POST",
    headers: { authorization: `Bearer ${setup.key}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "loopback", url: receiver.url(`/hook/${setup.projectId}`), events: ["Purchased"] }),
  });
  const destination = (await res.json()) as { id: string; secret: string };
  expect(res.status, JSON.stringify(destination)).toBe(201);
  receiverSecrets.push(destination.secret);
  receiver.setSecrets([...receiverSecrets]);
  await warmUp(
    cluster.webs.map((w) => w.url),
    setup.projectId,
    setup.key,
  );
  const broadcastId = await addSends(cluster.webs[0]!.url, setup, sink.port, new Date(Date.now() + broadcastInMs));
  return { ...setup, destinationId: destination.id, broadcastId };
}
const receiverSecrets: string[] = [];

/** The receiver's view of one project's destination (messages are posted to /hook/<projectId>). */
const receivedFor = (projectId: string) => ({
  ...receiver,
  received: receiver.received.filter((r) => r.path === `/hook/${projectId}`),
});

/** What a web's readiness says of its database (a METRICS_TOKEN bearer sees the node and whether it is writable). */
async function readiness(web: string) {
  const res = await fetch(`${web}/api/health/ready`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const body = (await res.json()) as { checks: { database: { ok: boolean; node?: string; writable?: boolean } } };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), database: body.checks.database };
}

/** Polls a node until it takes writes (pg_is_in_recovery() false): the moment of its promotion. */
async function writableSince(node: FormationNode, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await withNode(node.port, async (s) => (await s`select pg_is_in_recovery() as r`)[0]!.r === false).catch(
      () => false,
    );
    if (ok) return Date.now();
    if (Date.now() > deadline) throw new Error(`${node.name} not promoted within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  if (!pgAutoctlInstalled())
    throw new Error("pg_autoctl is missing: apt-get install pg-auto-failover-cli postgresql-15-auto-failover");
  receiver = await startReceiver();
  sink = await new SmtpSink().listen();
  const prefix = path.join(tmpdir(), "relay-failover-");
  formation = await startFormation({
    dir: mkdtempSync(prefix),
    // A run killed before its afterAll left its nodes on these ports: cleared first.
    stalePrefix: prefix,
    basePort: Number(process.env.FAILOVER_BASE_PORT ?? 6700),
    monitorSettings: FAST_FAILOVER_SETTINGS,
    primaryOnly: true,
  });
  // The processes start (and migrate) on the primary while the standby copies it.
  const env = {
    ...TWO_BY_TWO.env,
    // The product's default, not the other scale files' 15 s: a node being killed or stopped can take a
    // connection and not answer it for a moment, and the next host is tried only after this; at 15 s such
    // a request outlasted the 10 s bound below while every other request was answered at once.
    DATABASE_CONNECT_TIMEOUT: "5",
    DESTINATIONS_ALLOW_HOSTS: "127.0.0.1",
    METRICS_TOKEN,
    HEALTH_CACHE_SECONDS: "0",
  };
  const workerEnv = {
    AUTH_URL: `https://${MAIL_HOST}`,
    MESSAGES_POLL_MS: "100",
  };
  [cluster] = await Promise.all([startCluster(formation.url, { ...TWO_BY_TWO, env, workerEnv }), formation.healthy()]);
  sql = postgres(formation.url, { max: 2, onnotice: () => {}, connect_timeout: 5 });
}, 300_000);

afterEach((ctx) => {
  if (ctx.task.result?.state === "fail") failed = true;
});

afterAll(async () => {
  if (failed && formation) console.log(`[failover] formation log:\n${formation.logs().slice(-6000)}`);
  await stopRun("failover", { failed, cluster, sql });
  await formation?.stop();
  await receiver?.stop();
  await sink?.close();
});

describe("the primary's machine lost under load", () => {
  let setup: Awaited<ReturnType<typeof project>>;
  let ledger: Ledger;
  let lost: FormationNode;
  let survivor: FormationNode;
  const timeline = { killed: 0, promoted: 0, firstAccepted: 0 };

  it("answers 503 with Retry-After until the standby is promoted, then accepts within 10 s of the promotion", async () => {
    setup = await project(KILL_AT_MS);
    lost = (await formation.primary())!;
    survivor = formation.nodes.find((n) => n !== lost)!;
    for (const w of cluster.webs)
      expect((await readiness(w.url)).database).toMatchObject({
        ok: true,
        node: `127.0.0.1:${lost.port}`,
        writable: true,
      });

    const readyDuring: Awaited<ReturnType<typeof readiness>>[] = [];
    const outage = (async () => {
      await new Promise((r) => setTimeout(r, KILL_AT_MS));
      timeline.killed = Date.now();
      await formation.kill(lost);
      for (const w of cluster.webs) readyDuring.push(await readiness(w.url));
      timeline.promoted = await writableSince(survivor, 60_000);
    })();
    const onAnswer = (a: Answer) => {
      if (!timeline.firstAccepted && timeline.promoted && a.at >= timeline.promoted && a.status < 300)
        timeline.firstAccepted = a.at + a.ms;
    };
    // The load goes on 12 s past the promotion, however long the monitor takes.
    const until = () => (timeline.promoted ? timeline.promoted + 12_000 : Date.now() + 1000);
    ledger = await runLoad({
      webs: cluster.webs.map((w) => w.url),
      projectId: setup.projectId,
      key: setup.key,
      seconds: 10,
      clients: 4,
      onAnswer,
      until,
    });
    await outage;
    console.log("[failover] load", JSON.stringify(summarize(ledger, (Date.now() - timeline.killed) / 1000 + 5)));
    console.log(
      "[failover] ms after the kill:",
      JSON.stringify({
        promoted: timeline.promoted - timeline.killed,
        firstAccepted: timeline.firstAccepted - timeline.killed,
        slowestAnswer: Math.max(...ledger.answers.map((a) => a.ms)),
      }),
    );

    const refused = ledger.answers.filter((a) => a.status >= 500);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((a) => a.status !== 503 || !(Number(a.retryAfter) >= 1))).toEqual([]);
    expect(ledger.netErrors).toEqual([]);
    // No request hung: every answer within the connect timeout's order, none near the client's 30 s.
    expect(ledger.answers.filter((a) => a.ms > 10_000)).toEqual([]);
    // Refusals only between the kill and 10 s after the promotion.
    expect(refused.filter((a) => a.at + a.ms < timeline.killed || a.at > timeline.promoted + 10_000)).toEqual([]);
    expect(timeline.firstAccepted).toBeGreaterThan(0);
    expect(timeline.firstAccepted - timeline.promoted).toBeLessThan(10_000);
    for (const r of readyDuring) {
      expect(r.status).toBe(503);
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Readiness names the new primary.
    for (const w of cluster.webs)
      expect((await readiness(w.url)).database).toMatchObject({ node: `127.0.0.1:${survivor.port}`, writable: true });
    expect(cluster.all.map((p) => p.alive())).toEqual(cluster.all.map(() => true));
  }, 150_000);

  it("lost nothing acknowledged: events, fan-outs, lists, journeys, firings, deliveries, journey mails and the broadcast once each", async () => {
    await waitSettled(sql, setup.projectId, 90_000);
    expect(await verifyLedger(sql, setup.projectId, ledger, setup)).toEqual([]);
    await waitDelivered(sql, setup.projectId, setup.destinationId);
    expect(
      await verifyDeliveries(sql, setup.projectId, setup.destinationId, "Purchased", receivedFor(setup.projectId)),
    ).toEqual([]);
    await waitSent(sql, setup.projectId, setup);
    expect(await verifySends(sql, setup.projectId, setup, sink, MAIL_HOST)).toEqual([]);
  }, 180_000);

  it("takes the old primary back as a standby", async () => {
    formation.restart(lost);
    await formation.healthy(90_000);
    const states = await formation.states();
    expect(states.find((s) => s.port === lost.port)).toMatchObject({ reported: "secondary", goal: "secondary" });
    expect(states.find((s) => s.port === survivor.port)).toMatchObject({ reported: "primary", goal: "primary" });
    // Synchronous again: a commit waits for the rejoined standby.
    const [row] = await withNode(survivor.port, (s) => s`show synchronous_standby_names`);
    expect(row!.synchronous_standby_names).toMatch(/ANY 1/);
  }, 120_000);
});

describe("a switchover under load", () => {
  it("loses and doubles nothing", async () => {
    const setup = await project(SWITCH_AT_MS);
    const before = (await formation.primary())!;
    let switched = 0;
    const switching = (async () => {
      await new Promise((r) => setTimeout(r, SWITCH_AT_MS));
      await formation.switchover();
      switched = Date.now();
    })();
    const ledger = await runLoad({
      webs: cluster.webs.map((w) => w.url),
      projectId: setup.projectId,
      key: setup.key,
      seconds: 10,
      clients: 4,
      until: () => (switched ? switched + 5_000 : Date.now() + 1000),
    });
    await switching;
    console.log("[switchover] load", JSON.stringify(summarize(ledger, 15)));
    expect((await formation.primary())!.port).not.toBe(before.port);
    const refused = ledger.answers.filter((a) => a.status >= 500);
    expect(refused.filter((a) => a.status !== 503 || !(Number(a.retryAfter) >= 1))).toEqual([]);
    expect(ledger.netErrors).toEqual([]);
    expect(ledger.answers.filter((a) => a.at > switched + 1_000 && a.status >= 500)).toEqual([]);

    await waitSettled(sql, setup.projectId, 90_000);
    expect(await verifyLedger(sql, setup.projectId, ledger, setup)).toEqual([]);
    await waitDelivered(sql, setup.projectId, setup.destinationId);
    expect(
      await verifyDeliveries(sql, setup.projectId, setup.destinationId, "Purchased", receivedFor(setup.projectId)),
    ).toEqual([]);
    await waitSent(sql, setup.projectId, setup);
    expect(await verifySends(sql, setup.projectId, setup, sink, MAIL_HOST)).toEqual([]);
  }, 240_000);
});
