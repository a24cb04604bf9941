/*
 * Time of day in a named zone (DESIGN: the user's zone, else the project's, else UTC; the zone used is
 * recorded). Intl carries the zone database, so nothing here is hand-kept tables.
 */

import { canonicalZone } from "@/lib/time-zones/canonical-zone";

export { isTimeZone } from "@/lib/time-zones/canonical-zone";

/**
 * The zone a `until` uses, and why: the step's own, else the user's, else the project's, else UTC. The
 * user's is asked for only when the step names it: a walk that does not read it is every entry's
 * (walk-alike.ts).
 */
export function pickZone(
  step: string,
  userZone: () => string | null,
  project: string | null,
): { zone: string; note: string | null } {
  if (step !== "user") return { zone: canonicalZone(step) ?? step, note: null };
  const user = userZone();
  const zone = canonicalZone(user);
  if (zone) return { zone, note: null };
  const fallback = canonicalZone(project) ?? "UTC";
  const why = user ? `user's zone "${user}" is invalid` : "user has no zone";
  return { zone: fallback, note: `${why}; ${canonicalZone(project) ? "project's zone" : "UTC"} used` };
}

const WEEKDAY_INDEX: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/**
 * One formatter per zone, kept: making one costs far more than formatting with it, and a batch of due
 * entries formats a thousand times in the same few zones. Only valid zones are kept (Intl throws for
 * others), and the map is emptied past a bound: Intl also takes a zone's name in any letter case.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
    });
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of `at` in `zone`. */
function wall(at: Date, zone: string) {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    y: Number(parts.year),
    m: Number(parts.month),
    d: Number(parts.day),
    h: Number(parts.hour),
    min: Number(parts.minute),
    s: Number(parts.second),
    weekday: WEEKDAY_INDEX[String(parts.weekday).slice(0, 3).toLowerCase()]!,
  };
}

/** The zone's offset from UTC at `at`, in minutes. */
function offsetAt(at: Date, zone: string): number {
  return offsetOf(at, wall(at, zone));
}

/** The offset, in minutes, that the wall-clock fields `w` of `at` show. */
function offsetOf(at: Date, w: ReturnType<typeof wall>): number {
  return Math.round((Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s) - Math.floor(at.getTime() / 1000) * 1000) / 60000);
}

/** The instant a wall-clock time in `zone` names (a time skipped by a clock change moves forward by the gap). */
function instantOf(y: number, m: number, d: number, h: number, min: number, zone: string): Date {
  const guess = Date.UTC(y, m - 1, d, h, min);
  let at = new Date(guess - offsetAt(new Date(guess), zone) * 60000);
  at = new Date(guess - offsetAt(at, zone) * 60000);
  return at;
}

/** The first `time` (HH:MM) on one of `weekdays` in `zone` strictly after `now`. */
export function nextTimeOfDay(now: Date, time: string, weekdays: string[] | undefined, zone: string): Date {
  const [h, min] = time.split(":").map(Number) as [number, number];
  const allowed = new Set((weekdays?.length ? weekdays : Object.keys(WEEKDAY_INDEX)).map((w) => WEEKDAY_INDEX[w]));
  const today = wall(now, zone);
  for (let add = 0; add <= 8; add++) {
    const day = new Date(Date.UTC(today.y, today.m - 1, today.d + add));
    if (!allowed.has(day.getUTCDay())) continue;
    const at = instantOf(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), h, min, zone);
    if (at > now) return at;
  }
  throw new Error("unreachable: a week always holds an allowed day");
}

/** localIso's last answer. */
let lastIso = { zone: "", second: 0, text: "" };

/** `2026-12-01T09:00:00+01:00`: the instant written in the zone's own clock, as the path records it. */
export function localIso(at: Date, zone: string): string {
  // Written to a second: the entries a due batch moves on mostly share their delay's end, and the
  // formatter is the walk's largest cost.
  const second = Math.floor(at.getTime() / 1000);
  if (lastIso.zone === zone && lastIso.second === second) return lastIso.text;
  const w = wall(at, zone);
  const off = offsetOf(at, w);
  const sign = off < 0 ? "-" : "+";
  const abs = Math.abs(off);
  const pad = (n: number) => String(n).padStart(2, "0");
  const text = `${w.y}-${pad(w.m)}-${pad(w.d)}T${pad(w.h)}:${pad(w.min)}:${pad(w.s)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  lastIso = { zone, second, text };
  return text;
}
