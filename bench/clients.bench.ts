import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { Relay } from "../sdk/src/index";
import { benchEnvironment, load, postEvents } from "./harness";

/**
 * Events/s through the two client paths of issue 12, each as a ratio of `POST /users/events` in batches of
 * 100 measured in the same run (target ≥ 0.8): Segment's `/v1/batch` with 100 `track` messages (each with
 * a messageId, as analytics-node sends them), and the SDK's batching (`users.events.track`, flushAt 100,
 * 16 batches in flight). No worker runs: this is intake (accepted and durable), not the pipeline.
 */
const env = await benchEnvironment("clients");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
const run = randomUUID().slice(0, 8);
let n = 0;

const events = () =>
  JSON.stringify(
    Array.from({ length: 100 }, () => ({
      name: "bench_event",
      identifier: [{ external_id: `u-${n++ % 1000}` }],
      data: { n, plan: "pro" },
    })),
  );
const segment = () =>
  JSON.stringify({
    batch: Array.from({ length: 100 }, () => ({
      type: "track",
      event: "bench_event",
      userId: `u-${n % 1000}`,
      messageId: `${run}-${n++}`,
      properties: { n, plan: "pro" },
      timestamp: new Date().toISOString(),
      context: { library: { name: "@segment/analytics-node", version: "3.1.0" } },
    })),
  });

const baseline = await postEvents(env, events, { connections: CONNECTIONS, duration: SECONDS });
const basic = {
  authorization: `Basic ${Buffer.from(`${env.key}:`).toString("base64")}`,
  "content-type": "application/json",
};
const seg = await load({
  url: `${env.url}/v1/batch`,
  method: "POST",
  headers: basic,
  connections: CONNECTIONS,
  duration: SECONDS,
  requests: [{ setupRequest: (r) => ({ ...r, body: segment() }) }],
});

// The SDK: enqueue 16 batches' worth, flush (they go out concurrently), repeat for SECONDS.
const relay = new Relay({ apiKey: env.key, baseUrl: env.url });
let sdkEvents = 0;
const started = performance.now();
while (performance.now() - started < SECONDS * 1000) {
  for (let i = 0; i < 100 * CONNECTIONS; i++)
    void relay.users.events.track({
      name: "bench_event",
      identifier: [{ externalId: `u-${sdkEvents % 1000}` }],
      data: { n: sdkEvents++, plan: "pro" },
    });
  await relay.flush();
}
const sdkRate = Math.round(sdkEvents / ((performance.now() - started) / 1000));
await relay.close();

// From the request total, not autocannon's per-second average (which rounds to 0 when the machine is slow).
const rate = (r: Awaited<ReturnType<typeof load>>) => Math.round(((r.total - r.non2xx) * 100) / SECONDS);
const baseRate = rate(baseline);
const row = (label: string, rate: number, extra = "") =>
  `${label.padEnd(46)} ${String(rate).padStart(7)} events/s   ratio ${(rate / baseRate).toFixed(2)}${extra}`;
console.log(
  `loadavg ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}   ${SECONDS} s per measure, ${CONNECTIONS} connections`,
);
console.log(
  row("POST /users/events x100 (baseline)", baseRate, `   p99 ${baseline.p99} ms   non-2xx ${baseline.non2xx}`),
);
console.log(row("POST /v1/batch x100 track (Segment)", rate(seg), `   p99 ${seg.p99} ms   non-2xx ${seg.non2xx}`));
console.log(row("SDK users.events.track (flushAt 100)", sdkRate));
await env.close();
