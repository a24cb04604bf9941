import { describe, expect, it } from "vitest";
import { verdict } from "./verdict";

/** A deterministic generator (mulberry32), so the simulated splits are the same on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("A/B verdict (beta-binomial)", () => {
  it("gives the chance to beat the others as a Monte Carlo of the same posteriors does", () => {
    // References: 200,000 draws of Beta(1+s, 1+f) with Python's random.betavariate.
    const clear = verdict([
      { trials: 1000, successes: 100 },
      { trials: 1000, successes: 150 },
    ]);
    expect(clear.arms[1]!.chanceToBeatOthers).toBeCloseTo(0.9996, 3);
    const close = verdict([
      { trials: 100, successes: 10 },
      { trials: 100, successes: 12 },
    ]);
    expect(close.arms[1]!.chanceToBeatOthers).toBeCloseTo(0.669, 2);
    expect(close.arms[0]!.chanceToBeatOthers + close.arms[1]!.chanceToBeatOthers).toBeCloseTo(1, 6);
  });

  it("answers the posterior's 95 % interval around the rate", () => {
    const v = verdict([{ trials: 1000, successes: 100 }]);
    expect(v.arms[0]!.rate).toBe(0.1);
    expect(v.arms[0]!.interval[0]).toBeCloseTo(0.0829, 3);
    expect(v.arms[0]!.interval[1]).toBeCloseTo(0.1201, 3);
  });

  it("names a winner only at ≥ 0.95 with every arm at its minimum", () => {
    const arms = [
      { trials: 1000, successes: 100 },
      { trials: 1000, successes: 150 },
    ];
    expect(verdict(arms, { minPerArm: 500 }).winner).toBe(1);
    expect(verdict(arms, { minPerArm: 1001 }).winner).toBeNull();
    expect(
      verdict(
        [
          { trials: 100, successes: 10 },
          { trials: 100, successes: 12 },
        ],
        { minPerArm: 50 },
      ).winner,
    ).toBeNull();
  });

  it("reaches a winner on a split whose paths differ by a known margin", () => {
    // Entries arrive one by one on two paths; the verdict is read after every 100 entries per path.
    const run = (rates: [number, number], seed: number) => {
      const rnd = seeded(seed);
      const arms = [
        { trials: 0, successes: 0 },
        { trials: 0, successes: 0 },
      ];
      for (let n = 1; n <= 4000; n++) {
        for (let i = 0; i < 2; i++) {
          arms[i]!.trials++;
          if (rnd() < rates[i]!) arms[i]!.successes++;
        }
        if (n % 100 === 0) {
          const v = verdict(arms, { minPerArm: 500 });
          if (v.winner !== null) return { winner: v.winner, at: n };
        }
      }
      return { winner: null, at: 4000 };
    };
    for (const seed of [1, 2, 3]) {
      const differs = run([0.1, 0.16], seed);
      expect(differs.winner).toBe(1);
      expect(differs.at).toBeGreaterThanOrEqual(500);
    }
  });

  it("copes with empty arms, all-successes and all-failures", () => {
    const v = verdict([
      { trials: 0, successes: 0 },
      { trials: 50, successes: 50 },
      { trials: 50, successes: 0 },
    ]);
    for (const a of v.arms) {
      expect(Number.isFinite(a.chanceToBeatOthers)).toBe(true);
      expect(a.interval[0]).toBeLessThanOrEqual(a.interval[1]);
    }
    expect(v.arms[1]!.chanceToBeatOthers).toBeGreaterThan(0.95);
    expect(verdict([]).winner).toBeNull();
  });
});
