/*
 * A/B verdicts under a beta-binomial model: each arm's rate has the posterior Beta(1 + successes,
 * 1 + failures) (a uniform prior). An arm's chance to beat the others is the probability that its rate is
 * the highest, ∫ f_i(x) · Π_{j≠i} F_j(x) dx, integrated on one grid over the region where the posteriors
 * have their mass; the 95 % interval is the posterior's 2.5 % and 97.5 % quantiles on the same grid.
 * Deterministic (no sampling), so a report read twice answers the same numbers.
 */

export interface Arm {
  /** Recipients (or entries) of the arm that could convert: the denominator. */
  trials: number;
  /** Of them, the ones that did (opened, clicked, converted). */
  successes: number;
}

export interface ArmVerdict {
  rate: number;
  interval: [number, number];
  /** Probability that this arm's true rate is the highest of all arms. */
  chanceToBeatOthers: number;
}

export interface Verdict {
  arms: ArmVerdict[];
  /** The index of the winning arm once its chance is ≥ `threshold` and every arm has `minPerArm` trials. */
  winner: number | null;
}

const GRID = 4096;

function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** Lanczos approximation (g = 7, n = 9): about 15 significant digits for x > 0. */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = c[0]!;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

function posterior(arm: Arm) {
  const s = Math.max(0, Math.min(arm.successes, arm.trials));
  const a = 1 + s;
  const b = 1 + Math.max(0, arm.trials - s);
  const mean = a / (a + b);
  const sd = Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)));
  return { a, b, mean, sd, lb: logBeta(a, b) };
}

/** The verdict over `arms`: rates, intervals, chances to beat the others and, when decided, the winner. */
export function verdict(arms: Arm[], opts: { minPerArm: number; threshold?: number } = { minPerArm: 0 }): Verdict {
  const threshold = opts.threshold ?? 0.95;
  if (!arms.length) return { arms: [], winner: null };
  const ps = arms.map(posterior);
  // The grid covers every posterior's mass (12 standard deviations each way), so peaked posteriors of
  // large arms still get thousands of points.
  const lo = Math.max(0, Math.min(...ps.map((p) => p.mean - 12 * p.sd)));
  const hi = Math.min(1, Math.max(...ps.map((p) => p.mean + 12 * p.sd)));
  const step = (hi - lo) / GRID;
  const xs = Array.from({ length: GRID }, (_, k) => lo + (k + 0.5) * step);
  // Each arm's density on the grid, normalised on the grid, and its cumulative distribution.
  const dens = ps.map((p) => {
    const d = xs.map((x) => Math.exp((p.a - 1) * Math.log(x) + (p.b - 1) * Math.log1p(-x) - p.lb));
    const total = d.reduce((s, v) => s + v, 0);
    return total > 0 ? d.map((v) => v / total) : d.map(() => 1 / GRID);
  });
  const cdfs = dens.map((d) => {
    let run = 0;
    // The CDF at a point's middle: everything below it plus half of its own cell.
    return d.map((v) => {
      const mid = run + v / 2;
      run += v;
      return mid;
    });
  });
  const chances = dens.map((d, i) => {
    let sum = 0;
    for (let k = 0; k < GRID; k++) {
      let others = 1;
      for (let j = 0; j < dens.length; j++) if (j !== i) others *= cdfs[j]![k]!;
      sum += d[k]! * others;
    }
    return sum;
  });
  const norm = chances.reduce((s, v) => s + v, 0) || 1;
  const quantile = (i: number, q: number) => {
    const c = cdfs[i]!;
    let k = 0;
    while (k < GRID - 1 && c[k]! < q) k++;
    return xs[k]!;
  };
  const out = arms.map((arm, i) => ({
    rate: arm.trials > 0 ? Math.min(arm.successes, arm.trials) / arm.trials : 0,
    interval: [quantile(i, 0.025), quantile(i, 0.975)] as [number, number],
    chanceToBeatOthers: chances[i]! / norm,
  }));
  const best = out.reduce((b, a, i) => (a.chanceToBeatOthers > out[b]!.chanceToBeatOthers ? i : b), 0);
  const sampled = arms.length > 1 && arms.every((a) => a.trials >= opts.minPerArm);
  return { arms: out, winner: sampled && out[best]!.chanceToBeatOthers >= threshold ? best : null };
}
