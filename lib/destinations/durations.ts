const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration written like `5s`, `30m`, `2h`, `3d` or `200ms`, in milliseconds; null when it is not one. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d{1,9})(ms|s|m|h|d)\s*$/.exec(text);
  return m ? Number(m[1]) * UNITS[m[2]!]! : null;
}

/** A comma list of durations (`5s,5m,30m`); throws naming the variable when a part is not a duration. */
export function parseDurations(text: string, name: string): number[] {
  return text.split(",").map((part) => {
    const ms = parseDuration(part);
    if (ms === null) throw new Error(`${name}: "${part.trim()}" is not a duration like 5s, 30m, 2h or 3d`);
    return ms;
  });
}
