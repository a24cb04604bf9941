import { BlockList, isIP } from "node:net";

/**
 * IPv4 addresses no destination may reach unless DESTINATIONS_ALLOW_HOSTS lists them: every range of the
 * special-purpose registry that is not global: "this network", private (RFC 1918), CGNAT, loopback,
 * link-local (cloud metadata lives there), IETF protocol assignments, the three documentation ranges, the
 * 6to4 relay, benchmarking, multicast and reserved (broadcast included).
 */
const FORBIDDEN_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

/**
 * IPv6 is allowed only in global unicast (`2000::/3`): everything outside it is refused without a list of
 * what to refuse (loopback, unspecified, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and
 * `64:ff9b:1::/48`, discard `100::/64`, unique-local, link-local, multicast). Inside it, the ranges that
 * carry another address or reach nothing: IETF protocol assignments (Teredo `2001::/32`, benchmarking),
 * documentation (`2001:db8::/32`, `3fff::/20`) and 6to4 (`2002::/16`, which wraps an IPv4 address).
 */
const GLOBAL_V6: [string, number] = ["2000::", 3];
const FORBIDDEN_V6: [string, number][] = [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
];

const blockList = (ranges: [string, number][], type: "ipv4" | "ipv6") => {
  const b = new BlockList();
  for (const [net, bits] of ranges) b.addSubnet(net, bits, type);
  return b;
};
const FORBIDDEN = blockList(FORBIDDEN_V4, "ipv4");
for (const [net, bits] of FORBIDDEN_V6) FORBIDDEN.addSubnet(net, bits, "ipv6");
const GLOBAL = blockList([GLOBAL_V6], "ipv6");

/** `::ffff:10.0.0.1` (and the hex form `::ffff:a00:1`) as the IPv4 address it stands for. */
export function unmapped(address: string): string {
  const a = address.toLowerCase().replace(/^\[|\]$/g, "");
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (hex) {
    const hi = Number.parseInt(hex[1]!, 16);
    const lo = Number.parseInt(hex[2]!, 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return a;
}

export interface AllowList {
  names: Set<string>;
  addresses: BlockList;
}

/**
 * DESTINATIONS_ALLOW_HOSTS: names, addresses or CIDR ranges. A listed name may be reached over plain
 * `http`; a listed address or range may be connected to although it is private. A name does not vouch
 * for what it resolves to: a receiver on a private address needs its address listed too.
 */
let cached: { text: string; list: AllowList } | undefined;

export function allowList(env: Record<string, string | undefined> = process.env): AllowList {
  const text = env.DESTINATIONS_ALLOW_HOSTS ?? "";
  if (cached?.text === text) return cached.list;
  const list = parseAllowList(text);
  cached = { text, list };
  return list;
}

function parseAllowList(text: string): AllowList {
  const names = new Set<string>();
  const addresses = new BlockList();
  for (const raw of text.split(",")) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, "");
    if (!entry) continue;
    const [addr, bits] = entry.split("/");
    const ip = unmapped(addr!);
    const family = isIP(ip);
    if (family) {
      const type = family === 4 ? "ipv4" : "ipv6";
      if (bits !== undefined) addresses.addSubnet(ip, Number(bits), type);
      else addresses.addAddress(ip, type);
      names.add(ip);
    } else names.add(entry.replace(/\.$/, ""));
  }
  return { names, addresses };
}

/** Why an address may not be connected to, or null when it may. */
export function forbiddenAddress(address: string, allow: AllowList): string | null {
  const ip = unmapped(address);
  const family = isIP(ip);
  if (!family) return `${address} is not an address`;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (allow.addresses.check(ip, type)) return null;
  const global = type === "ipv4" ? !FORBIDDEN.check(ip, type) : GLOBAL.check(ip, type) && !FORBIDDEN.check(ip, type);
  return global ? null : `${ip} is not a global address (private, loopback, link-local, documentation or reserved)`;
}

/** Whether the URL's host is listed by name (or as the literal address written in the URL). */
export function hostListed(host: string, allow: AllowList): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return allow.names.has(h) || allow.names.has(unmapped(h));
}
