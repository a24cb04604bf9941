import { readFileSync } from "node:fs";
import { closeDatabase, getDb } from "../../db/client";
import { systemContext } from "../../lib/access/context";
import { getJourney } from "../../lib/journeys/get-journey";
import { journeyReport } from "../../lib/reports/journey-report";
import { readReport } from "../../lib/reports/read-report";

/*
 * The journey report and its parts timed in process on the reports bench's kept database
 * (bench/results/reports-db.json, KEEP_TEST_DB=1): `N` (30) calls after one warm-up each, p50 and p95.
 */

const kept = JSON.parse(readFileSync("bench/results/reports-db.json", "utf8")) as {
  url: string;
  sizes: { name: string; p: { projectId: string }; c: { journeyId: string } }[];
};
process.env.DATABASE_URL = kept.url;
const N = Number(process.env.N ?? 30);
async function timed(name: string, f: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i <= N; i++) {
    const t = performance.now();
    await f();
    if (i) ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${name}: p50 ${ms[Math.floor(N / 2)]!.toFixed(1)} p95 ${ms[Math.floor(N * 0.95)]!.toFixed(1)} ms`);
}
for (const s of kept.sizes) {
  const ctx = systemContext(getDb(), s.p.projectId);
  const id = s.c.journeyId;
  console.log(`== ${s.name}`);
  await timed("journeyReport", () => journeyReport(ctx, { id }));
  await timed("getJourney", () => getJourney(ctx, id));
  await timed("readReport journey", () => readReport(ctx, { scope: "journey", scopeId: id }));
  await timed("readReport step welcome", () => readReport(ctx, { scope: "step", scopeId: `${id}/welcome` }));
  await timed("readReport path 0", () => readReport(ctx, { scope: "path", scopeId: `${id}/split/0` }));
}
await closeDatabase();
