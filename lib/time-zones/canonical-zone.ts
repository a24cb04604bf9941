/*
 * The one reading of a time zone's name. Intl takes a zone in any letter case (`europe/paris`), while
 * PostgreSQL's `at time zone` and `pg_timezone_names` compare names as written: reading a name in one place
 * and the other in another made `europe/paris` Paris for quiet hours and UTC for a broadcast's local time.
 * Every zone is read through canonicalZone, and users' zones are stored in its spelling (`Europe/Paris`).
 */

const known = new Map<string, string | null>();

/** The zone's canonical spelling (`europe/paris` -> `Europe/Paris`), or null when it is none Intl knows. */
export function canonicalZone(tz: string | null | undefined): string | null {
  if (!tz || tz.length > 64) return null;
  let zone = known.get(tz);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      zone = null;
    }
    // Names arrive in any case: the map is bounded, not a list of every spelling ever seen.
    if (known.size >= 2_000) known.clear();
    known.set(tz, zone);
  }
  return zone;
}

export function isTimeZone(tz: string | null | undefined): boolean {
  return canonicalZone(tz) !== null;
}
