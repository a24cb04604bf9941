import { Invalid } from "@/lib/http/errors";
import type { Step } from "./step-schema";

/** A split test on conversions counts the journey's goal: without one it could never convert (400). */
export function checkSplitTests(steps: Step[], hasGoal: boolean): void {
  const errors = steps.flatMap((s, i) =>
    s.kind === "split" && s.test?.metric === "conversion" && !hasGoal
      ? [{ path: `steps[${i}].test.metric`, message: "a conversion test needs the journey's `goal`" }]
      : [],
  );
  if (errors.length)
    throw new Invalid(
      `The journey's steps are not valid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}.`,
      {
        errors,
      },
    );
}
