import { BlockList, isIP } from "node:net";

/**
 * Addresses no destination may reach unless DESTINATIONS_ALLOW_HOSTS lists them: loopback, RFC 1918,
 * link-local (cloud metadata lives there), unique-local, "this network", CGNAT, multicast, reserved,
 * benchmarking, NAT64 and documentation ranges (the list docs/destinations.md gives), and the IPv6 forms of each (IPv4-mapped addresses are unwrapped before the check).
 */
const FORBIDDEN = (() => {
  const b = new BlockList();
  for (const [net, bits] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ] as const)
    b.addSubnet(net, bits, "ipv4");
  for (const [net, bits] of [
    ["::", 128],
    ["::1", 128],
    ["fe80::", 10],
    ["fc00::", 7],
    ["ff00::", 8],
    ["64:ff9b::", 96],
    ["2001:2::", 48],
    ["2001:db8::", 32],
  ] as const)
    b.addSubnet(net, bits, "ipv6");
  return b;
})();

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
  return FORBIDDEN.check(ip, type) ? `${ip} is a private, loopback, link-local or reserved address` : null;
}

/** Whether the URL's host is listed by name (or as the literal address written in the URL). */
export function hostListed(host: string, allow: AllowList): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return allow.names.has(h) || allow.names.has(unmapped(h));
}
