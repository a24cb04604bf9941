import { mkdirSync, writeFileSync } from "node:fs";
import { TEST_AUTH_SECRET } from "../scripts/test/next-server";
import { reportsEnvironment } from "./reports-environment";
import { reads } from "./reports-reads";
import { recording } from "./reports-recording";
import { DAYS, LARGE, load, PHASES, SMALL } from "./reports-settings";

/*
 * `npm run bench -- reports` (issue 57).
 *
 * 1. Reads: two projects of one database, BENCH_SMALL_MESSAGES (100,000) and BENCH_MESSAGES (10,000,000)
 *    messages over the last BENCH_DAYS (30) days (bench/reports-seed.ts: eight broadcasts, a journey with
 *    two send steps, what the messages did and the rollups for it, all in SQL), then the worker's fold of
 *    the closed hours' shards (bench/reports-reads.ts). Each report the console
 *    reads, BENCH_CALLS (50) times after one warm-up on each project: p50 / p95, and the p95 ratio large
 *    over small (target <= 2, and the large p95 <= 100 ms).
 * 2. Recording: with the same web and one worker (default settings), BENCH_TRACK (20,000) each of client
 *    events (`POST /users/events`, one event a request), pixel fetches (`GET /o/<token>`, each a first open
 *    of its own message by a browser) and tracked link clicks (`GET /l/<token>`, a first click of its
 *    message), BENCH_CONNECTIONS (16) requests in flight (each path exactly once: driven by
 *    autocannon's setupRequest, a run left a third of its messages unopened): per second from the first request until every one is
 *    recorded (the intake empty, so the worker recorded `message.opened` and `link.clicked` too). Opens/s
 *    and clicks/s over events/s: target >= 0.5.
 *
 * BENCH_ROUNDS (1) times the reads, and the recording, that many times over: each figure is the median of
 * the rounds' (each recording round on a project of its own).
 * KEEP_TEST_DB=1 keeps the database and writes bench/results/reports-db.json; BENCH_REUSE=1 then times the
 * reads again on it without seeding (after a rebuild; its migrations run first, so a database seeded by an
 * older build gets the newer tables' backfills).
 *
 * Writes bench/results/reports.json. Figures, not pass/fail.
 */

// Tokens minted here must verify in the server, which signs with the test secret (scripts/test/next-server.ts).
process.env.AUTH_SECRET ??= TEST_AUTH_SECRET;
// Every request here comes from one address; the pixel and link doors' per-address budget (10/s, lib/http/
// budgets.ts) would answer 429 and record nothing past its burst. Real opens come from many addresses.
process.env.RATE_LIMIT_IP ??= "10000000:10000000";

const env = await reportsEnvironment();
const results: Record<string, unknown> = { loadavgAtStart: load(), large: LARGE, small: SMALL, days: DAYS };
try {
  if (PHASES.has("reads")) results.reads = await reads(env);
  if (PHASES.has("recording")) results.recording = await recording(env);
  results.loadavgAtEnd = load();
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/reports.json", JSON.stringify(results, null, 2));
} finally {
  await env.close();
}
