import { isIP } from "node:net";
import { allowList, forbiddenAddress, hostListed, type AllowList } from "./allowed-hosts";

/**
 * Why a destination URL is refused, or null: it must be `https`, or `http` to a host DESTINATIONS_ALLOW_HOSTS
 * lists; no credentials in it; and a literal address must not be a forbidden one. Names are checked again
 * when connecting, on the address they resolve to then (http-agent.ts), so DNS cannot rebind them.
 */
export function urlRefusal(url: string, allow: AllowList = allowList()): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "must be an https URL";
  if (u.username || u.password) return "must not carry a user name or password";
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (u.protocol === "http:" && !hostListed(host, allow))
    return "must be https (plain http only to a host listed in DESTINATIONS_ALLOW_HOSTS)";
  if (isIP(host)) {
    const why = forbiddenAddress(host, allow);
    if (why) return `${why}; list it in DESTINATIONS_ALLOW_HOSTS to allow it`;
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    if (!hostListed(host, allow))
      return "localhost is not reachable from Relay unless DESTINATIONS_ALLOW_HOSTS lists it";
  }
  return null;
}
