import { randomUUID } from "node:crypto";
import { benchEnvironment, load } from "./harness";

/**
 * Upsert throughput: POST /users with 50 connections (new users, then updates of existing ones), batches of
 * 100 through /users/batch, against a static route on the same server as the framework's ceiling.
 */
const env = await benchEnvironment("users");
const headers = { authorization: `Bearer ${env.key}`, "content-type": "application/json" };
const path = `/api/client/projects/${env.projectId}`;
const run = randomUUID().slice(0, 8);
let n = 0;

const ceiling = await load({ url: `${env.url}/api/openapi.json`, duration: 5 });
const created = await load({
  url: env.url + path + "/users",
  method: "POST",
  headers,
  requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ identifier: [{ external_id: `${run}-${n++}` }], email: `u${n}@example.com`, data: { plan: "free", n } }) }) }],
});
let m = 0;
const updated = await load({
  url: env.url + path + "/users",
  method: "POST",
  headers,
  requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ identifier: [{ external_id: `${run}-${m++ % 1000}` }], data: { plan: m % 2 ? "pro" : "free", seen: m } }) }) }],
});
let b = 0;
const batch = await load({
  url: env.url + path + "/users/batch",
  method: "POST",
  headers,
  connections: 10,
  requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(Array.from({ length: 100 }, () => ({ identifier: [{ external_id: `${run}-b-${b++}` }], data: { b } }))) }) }],
});

const fmt = (label: string, r: Awaited<ReturnType<typeof load>>, perRequest = 1) =>
  `${label.padEnd(44)} ${String(r.rps * perRequest).padStart(7)} /s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
console.log(fmt("static route (framework ceiling), req", ceiling));
console.log(fmt("POST /users, new users, 50 conn", created));
console.log(fmt("POST /users, updates of 1,000 users, 50 conn", updated));
console.log(fmt("POST /users/batch x100, users, 10 conn", batch, 100));
console.log(`POST /users new-user rate vs framework ceiling: ${(created.rps / ceiling.rps).toFixed(2)}`);
await env.close();
