/**
 * The header instrumentation.ts stamps on every request with the TCP peer's address, overwriting whatever
 * a client sent under that name. Next.js itself only fills X-Forwarded-For when the client sent none, so
 * that header alone says nothing trustworthy about who is calling.
 */
import { isIPv4, isIPv6 } from "node:net";

export const PEER_HEADER = "x-relay-peer";

/**
 * The caller's address for per-IP limits. Without TRUST_PROXY: the TCP peer (X-Forwarded-For is ignored,
 * since any client can write it). With TRUST_PROXY=<n> (or `true` = 1): the n-th address from the right
 * of X-Forwarded-For, i.e. the one the outermost of n trusted proxies saw.
 */
export function clientAddress(req: Request): string {
  const trust = process.env.TRUST_PROXY?.trim().toLowerCase();
  if (trust && trust !== "false" && trust !== "0") {
    const hops = trust === "true" ? 1 : Math.max(1, Math.floor(Number(trust)) || 1);
    const chain = (req.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const picked = chain[Math.max(0, chain.length - hops)];
    if (picked) return picked.slice(0, 64);
  }
  return (req.headers.get(PEER_HEADER) ?? "unknown").slice(0, 64);
}

/**
 * The key a per-address budget counts under: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64, so counting single addresses would give it 2^64 budgets). An
 * IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function addressBucket(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(bare)) return address;
  const [head, tail] = bare.includes("::") ? (bare.split("::") as [string, string]) : [bare, null];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail takes two groups; only the first four groups matter here anyway.
  const width = right.some((g) => g.includes(".")) ? 7 : 8;
  const groups =
    tail === null ? left : [...left, ...Array(Math.max(0, width - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g || "0", 16) || 0).toString(16))
    .join(":")}::/64`;
}

/** The caller's budget key: its address, or its IPv6 /64 (see addressBucket). */
export function callerBucket(req: Request): string {
  return addressBucket(clientAddress(req));
}
