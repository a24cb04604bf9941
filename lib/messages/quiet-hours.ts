import { canonicalZone } from "@/lib/time-zones/canonical-zone";
/** "HH:MM" to minutes after midnight. */
function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h! * 60 + m!;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes after local midnight at `at` in `timeZone` (UTC when unknown or not a zone Intl knows). */
export function localMinutes(at: Date, timeZone: string | null): number {
  const zone = canonicalZone(timeZone) ?? "UTC";
  let f = formats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    } catch {
      return localMinutes(at, "UTC");
    }
    formats.set(zone, f);
  }
  const parts = f.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get("hour") * 60 + get("minute");
}

/**
 * When a message may go if `at` falls in the quiet hours in the user's time zone: the next local `end`
 * (a window like 21:00-08:00 spans midnight); null outside them. The wait is counted in minutes of the
 * local clock, so a daylight-saving change inside the window moves the release by that hour at most.
 */
export function quietUntil(at: Date, timeZone: string | null, hours: { start: string; end: string }): Date | null {
  const now = localMinutes(at, timeZone);
  const start = minutes(hours.start);
  const end = minutes(hours.end);
  if (start === end) return null;
  const inside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return null;
  const wait = (end - now + 1440) % 1440;
  const release = new Date(at.getTime() + wait * 60_000);
  release.setUTCSeconds(0, 0);
  return release;
}
