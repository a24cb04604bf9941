import { isIP } from "node:net";
import { allowList, forbiddenAddress, hostListed } from "@/lib/destinations/allowed-hosts";
import { Invalid } from "@/lib/http/errors";

/**
 * A provider's host gets the destinations' checks when saved: a literal private, loopback or link-local
 * address, or `localhost`, is refused unless DESTINATIONS_ALLOW_HOSTS lists it. Names are checked again
 * on the address they resolve to when connecting (transports.ts).
 */
export function assertProviderHost(url: string, path: string): void {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const allow = allowList();
  let why: string | null = null;
  // A Twilio auth token over plain HTTP is readable on the way: only to a host the operator listed.
  if (parsed.protocol === "http:" && !hostListed(host, allow))
    why = "http:// is only for hosts in DESTINATIONS_ALLOW_HOSTS; use https://";
  else if (parsed.protocol !== "http:" && parsed.protocol !== "https:" && path === "api_base") why = "an https:// URL";
  else if (isIP(host)) why = forbiddenAddress(host, allow);
  else if ((host === "localhost" || host.endsWith(".localhost")) && !hostListed(host, allow))
    why = "localhost is not reachable from Relay";
  if (why)
    throw new Invalid(`The provider's host is refused: ${why}; list it in DESTINATIONS_ALLOW_HOSTS to allow it.`, {
      errors: [{ path, message: why }],
    });
}
