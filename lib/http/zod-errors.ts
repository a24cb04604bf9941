import type { z } from "zod";
import type { FieldError } from "./errors";

/** `["items", 2, "identifier"]` → `items[2].identifier`; a leading index → `[2].identifier`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function zodIssuesToFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    // A union failure is reported at its deepest useful branch rather than as "invalid input".
    if (issue.code === "invalid_union" && issue.errors?.length) {
      const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
      for (const sub of best) errors.push({ path: formatPath([...issue.path, ...sub.path]), message: sub.message });
      continue;
    }
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors.push({ path: formatPath([...issue.path, key]), message: "unknown field" });
      continue;
    }
    errors.push({ path: formatPath(issue.path), message: issue.message });
  }
  return errors.slice(0, 100);
}
