/**
 * The header instrumentation.ts stamps on every request with the TCP peer's address, overwriting whatever
 * a client sent under that name. Next.js itself only fills X-Forwarded-For when the client sent none, so
 * that header alone says nothing trustworthy about who is calling.
 */
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
