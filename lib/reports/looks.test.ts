import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/scripts/test/prng";
import { looksReached, MAX_LOOKS, nextLookAt, takeLook, type TestState, UNDECIDED } from "./looks";
import { verdict } from "./verdict";

/*
 * Seeded simulations of split tests as the journeys run them: entries arrive on every path, and the rule
 * is asked after every 50 entries per path (as often as entries pass or a report is read: peeking at
 * will). The looks rule decides only at its fixed looks with its stricter threshold.
 */
const MIN = 500;
const READ_EVERY = 50;

function run(rates: number[], seed: number, rule: "looks" | "every-read") {
  const rnd = mulberry32(seed);
  const arms = rates.map(() => ({ trials: 0, successes: 0 }));
  let state: TestState = UNDECIDED;
  // The plain rule is asked every 100 entries up to 4,000 (as decision 0033 measured it), to keep it quick.
  const last = rule === "looks" ? MIN * 2 ** (MAX_LOOKS - 1) : 4000;
  const every = rule === "looks" ? READ_EVERY : 100;
  for (let n = 1; n <= last; n++) {
    rates.forEach((r, i) => {
      arms[i]!.trials++;
      if (rnd() < r) arms[i]!.successes++;
    });
    if (n % every) continue;
    if (rule === "every-read") {
      const w = verdict(arms, { minPerArm: MIN }).winner;
      if (w !== null) return { winner: w, at: n };
      continue;
    }
    state = takeLook(state, arms, MIN) ?? state;
    if (state.decided) return { winner: state.winner, at: n, looks: state.looks };
  }
  return { winner: null, at: null, looks: state.looks };
}

const falseWinners = (rates: number[], runs: number, rule: "looks" | "every-read", base: number) => {
  let n = 0;
  for (let s = 0; s < runs; s++) if (run(rates, base + s, rule).winner !== null) n++;
  return n / runs;
};

describe("A/B looks", () => {
  it("counts looks at 1×, 2×, 4×, 8× and 16× the minimum, then none", () => {
    expect(looksReached(499, MIN)).toBe(0);
    expect(looksReached(500, MIN)).toBe(1);
    expect(looksReached(1999, MIN)).toBe(2);
    expect(looksReached(2000, MIN)).toBe(3);
    expect(looksReached(1_000_000, MIN)).toBe(MAX_LOOKS);
    expect(nextLookAt(0, MIN)).toBe(500);
    expect(nextLookAt(2, MIN)).toBe(2000);
    expect(nextLookAt(MAX_LOOKS, MIN)).toBeNull();
  });

  it("takes each look once and never changes a decided test", () => {
    const arms = [
      { trials: 600, successes: 60 },
      { trials: 600, successes: 130 },
    ];
    const first = takeLook(UNDECIDED, arms, MIN)!;
    expect(first).toMatchObject({ looks: 1, winner: 1, decided: true });
    expect(takeLook(first, [arms[1]!, arms[0]!], MIN)).toBeNull();
    const even = [
      { trials: 600, successes: 60 },
      { trials: 600, successes: 61 },
    ];
    const once = takeLook(UNDECIDED, even, MIN)!;
    expect(once).toMatchObject({ looks: 1, winner: null, decided: false });
    expect(takeLook(once, even, MIN)).toBeNull();
  });

  it("names a false winner on equal paths in at most 5 % of runs, where checking every read names one in over 20 %", () => {
    // Two paths at 10 %: 400 seeded runs by the looks, 100 of them by the plain rule; three paths, 200 runs.
    const looks2 = falseWinners([0.1, 0.1], 400, "looks", 1000);
    const looks3 = falseWinners([0.1, 0.1, 0.1], 200, "looks", 5000);
    const everyRead = falseWinners([0.1, 0.1], 100, "every-read", 1000);
    console.log(
      `false winners: looks rule ${(looks2 * 100).toFixed(1)} % (2 paths), ${(looks3 * 100).toFixed(1)} % (3 paths); every read at 0.95: ${(everyRead * 100).toFixed(1)} %`,
    );
    expect(looks2).toBeLessThanOrEqual(0.05);
    expect(looks3).toBeLessThanOrEqual(0.05);
    expect(everyRead).toBeGreaterThan(0.2);
  }, 300_000);

  it("reaches the right winner on paths that differ by a known margin, and none on equal paths", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const differs = run([0.1, 0.16], seed, "looks");
      expect(differs.winner, `seed ${seed}`).toBe(1);
      expect(differs.at).toBeGreaterThanOrEqual(MIN);
      const three = run([0.1, 0.1, 0.16], seed, "looks");
      expect(three.winner, `seed ${seed}`).toBe(2);
      const same = run([0.1, 0.1], seed, "looks");
      expect(same, `seed ${seed}`).toMatchObject({ winner: null, looks: MAX_LOOKS });
    }
  }, 60_000);
});
