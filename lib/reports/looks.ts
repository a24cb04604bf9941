import { type Arm, verdict } from "./verdict";

/*
 * When an A/B test may name a winner: at fixed looks, never on every read. Checking "chance ≥ 0.95" each
 * time a report is read names a false winner on equal paths in 25–39 % of runs (docs/decisions/0033),
 * because every read is another chance for noise to cross the line. So a test looks at most MAX_LOOKS
 * times, when its smallest path reaches `min_per_path`, then 2×, 4×, 8× and 16× that, and at each look
 * requires a chance of 1 − 0.05 / (MAX_LOOKS · paths): a Bonferroni bound, so on equal paths the chance of
 * a false winner over all looks stays ≤ 5 % (measured in looks.test.ts). A look is taken once (the
 * decision row counts them) and a look missed (no read or entry while the path passed its size) is
 * skipped, which can only lower that chance. After the last look without a winner the test is over.
 */

export const MAX_LOOKS = 5;

/** What a test's metric counts, in the rollups. */
export const TEST_METRIC = { conversion: "converted", click: "clicked", open: "opened" } as const;

/** The chance to beat the others an arm needs at one look, for a test of `arms` arms. */
export function lookThreshold(arms: number): number {
  return 1 - 0.05 / (MAX_LOOKS * Math.max(2, arms));
}

/** How many looks the test has reached with `fewest` trials on its smallest arm (0 before the first). */
export function looksReached(fewest: number, minPerArm: number): number {
  let looks = 0;
  while (looks < MAX_LOOKS && fewest >= minPerArm * 2 ** looks) looks++;
  return looks;
}

/** The smallest arm's size at the next look, or null once every look is taken. */
export function nextLookAt(looks: number, minPerArm: number): number | null {
  return looks >= MAX_LOOKS ? null : minPerArm * 2 ** looks;
}

export interface TestState {
  looks: number;
  winner: number | null;
  chance: number | null;
  /** The test is over: a winner found, or the last look taken without one. */
  decided: boolean;
}

export const UNDECIDED: TestState = { looks: 0, winner: null, chance: null, decided: false };

/**
 * The state after a look, or null when no new look is due (decided already, or the smallest arm has not
 * reached the next look's size). Pure, so a simulation can run the exact rule the database rows follow.
 */
export function takeLook(state: TestState, arms: Arm[], minPerArm: number): TestState | null {
  if (state.decided || arms.length < 2) return null;
  const reached = looksReached(Math.min(...arms.map((a) => a.trials)), minPerArm);
  if (reached <= state.looks) return null;
  const v = verdict(arms, { minPerArm, threshold: lookThreshold(arms.length) });
  return {
    looks: reached,
    winner: v.winner,
    chance: v.winner === null ? null : v.arms[v.winner]!.chanceToBeatOthers,
    decided: v.winner !== null || reached === MAX_LOOKS,
  };
}
