import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { Agent } from "undici";
import { allowList, forbiddenAddress, type AllowList } from "./allowed-hosts";
import { ATTEMPT_TIMEOUT_MS } from "./retry-schedule";

/** Connections (so requests in flight) per destination origin: a slow receiver holds its own, nobody else's. */
export const CONNECTIONS_PER_DESTINATION = Number(process.env.DESTINATION_CONCURRENCY ?? 16);

export class ForbiddenAddressError extends Error {
  readonly code = "RELAY_FORBIDDEN_ADDRESS";
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the name and keeps only addresses a destination may reach:
 * the check happens on the address actually connected to, so a name that resolved to a public address at
 * create and to 169.254.169.254 now is refused now.
 */
export function guardedLookup(allow: AllowList) {
  return (hostname: string, options: LookupOptions, cb: LookupCallback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
    dnsLookup(hostname, { all: true, family }, (err, addresses) => {
      if (err) return cb(err, []);
      const refused: string[] = [];
      const ok = addresses.filter((a) => {
        const why = forbiddenAddress(a.address, allow);
        if (why) refused.push(why);
        return !why;
      });
      if (!ok.length)
        return cb(new ForbiddenAddressError(`refused to connect: ${hostname} resolves to ${refused.join("; ")}`), []);
      if (options.all) cb(null, ok);
      else cb(null, ok[0]!.address, ok[0]!.family);
    });
  };
}

let shared: Agent | undefined;

/**
 * The process's one undici Agent for destinations: keep-alive connections, a pool per origin capped at
 * CONNECTIONS_PER_DESTINATION, the guarded lookup, and no redirects (undici follows none unless asked).
 */
export function destinationAgent(): Agent {
  shared ??= new Agent({
    connections: CONNECTIONS_PER_DESTINATION,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: ATTEMPT_TIMEOUT_MS,
    bodyTimeout: ATTEMPT_TIMEOUT_MS,
    connect: { timeout: ATTEMPT_TIMEOUT_MS, lookup: guardedLookup(allowList()) },
  });
  return shared;
}
