import { isIP } from "node:net";
import { allowList, forbiddenAddress, hostListed } from "@/lib/destinations/allowed-hosts";
import { Invalid } from "@/lib/http/errors";

/**
 * A provider's host gets the destinations' checks when saved: a literal private, loopback or link-local
 * address, or `localhost`, is refused unless DESTINATIONS_ALLOW_HOSTS lists it. Names are checked again
 * on the address they resolve to when connecting (transports.ts).
 */
export function assertProviderHost(url: string, path: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  const allow = allowList();
  let why: string | null = null;
  if (isIP(host)) why = forbiddenAddress(host, allow);
  else if ((host === "localhost" || host.endsWith(".localhost")) && !hostListed(host, allow))
    why = "localhost is not reachable from Relay";
  if (why)
    throw new Invalid(`The provider's host is refused: ${why}; list it in DESTINATIONS_ALLOW_HOSTS to allow it.`, {
      errors: [{ path, message: why }],
    });
}
