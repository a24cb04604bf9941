import { loadavg } from "node:os";

/** The reports bench's settings (bench/README.md) and the helpers its phases share. */
export const LARGE = Number(process.env.BENCH_MESSAGES ?? 10_000_000);
export const SMALL = Number(process.env.BENCH_SMALL_MESSAGES ?? 100_000);
export const DAYS = Math.max(7, Number(process.env.BENCH_DAYS ?? 30));
export const CALLS = Number(process.env.BENCH_CALLS ?? 50);
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
export const TRACK = Number(process.env.BENCH_TRACK ?? 20_000);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** BENCH_PHASES: `reads`, `recording` or both (the default), comma-separated. */
export const PHASES = new Set((process.env.BENCH_PHASES ?? "reads,recording").split(","));
/** Where KEEP_TEST_DB=1 writes the kept database's url and projects, and BENCH_REUSE=1 reads them. */
export const KEPT = "bench/results/reports-db.json";

export const log = (msg: string) => console.log(`[bench] ${new Date().toISOString().slice(11, 19)} ${msg}`);
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
