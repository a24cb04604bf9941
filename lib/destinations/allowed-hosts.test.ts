import { describe, expect, it } from "vitest";
import { allowList, forbiddenAddress, unmapped } from "./allowed-hosts";
import { urlRefusal } from "./check-url";
import { parseDurations } from "./durations";
import { nextAttemptDelay } from "./retry-schedule";

const none = allowList({});

describe("forbidden addresses", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd12::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "0:0:0:0:0:ffff:10.0.0.1",
  ])("refuses %s", (a) => {
    expect(forbiddenAddress(a, none)).toMatch(/private, loopback/);
  });

  // Every range docs/destinations.md names, at both ends (and the mapped form of one of each family).
  it.each([
    ["loopback", ["127.0.0.0", "127.255.255.255", "::1"]],
    ["unspecified", ["0.0.0.0", "0.255.255.255", "::"]],
    ["private", ["10.0.0.0", "10.255.255.255", "172.16.0.0", "172.31.255.255", "192.168.0.0", "192.168.255.255"]],
    ["CGNAT", ["100.64.0.0", "100.127.255.255", "::ffff:100.64.0.1"]],
    ["link-local", ["169.254.0.0", "169.254.255.255", "fe80::", "febf:ffff::1"]],
    ["unique-local", ["fc00::", "fdff:ffff:ffff::1"]],
    ["multicast", ["224.0.0.0", "239.255.255.255", "ff00::", "ffff::1"]],
    ["reserved", ["240.0.0.0", "255.255.255.255", "192.0.0.1"]],
    ["benchmarking", ["198.18.0.0", "198.19.255.255", "2001:2::1"]],
    ["NAT64", ["64:ff9b::a9fe:a9fe"]],
    ["documentation", ["192.0.2.1", "198.51.100.1", "203.0.113.255", "2001:db8::1"]],
  ] as const)("refuses every documented %s address", (_range, addresses) => {
    for (const a of addresses) expect(forbiddenAddress(a, none), a).not.toBeNull();
  });

  it.each(["172.32.0.0", "100.128.0.0", "11.0.0.0", "198.20.0.0", "223.255.255.255", "169.253.255.255"])(
    "allows %s, just outside a refused range",
    (a) => {
      expect(forbiddenAddress(a, none)).toBeNull();
    },
  );

  it.each(["93.184.216.34", "2606:4700::1111", "::ffff:93.184.216.34"])("allows %s", (a) => {
    expect(forbiddenAddress(a, none)).toBeNull();
  });

  it("unwraps IPv4-mapped IPv6 in both spellings", () => {
    expect(unmapped("::ffff:a9fe:a9fe")).toBe("169.254.169.254");
    expect(unmapped("[::ffff:10.0.0.1]")).toBe("10.0.0.1");
  });

  it("lets DESTINATIONS_ALLOW_HOSTS list addresses and ranges, but a name vouches for no address", () => {
    const allow = allowList({ DESTINATIONS_ALLOW_HOSTS: "10.0.0.0/8, 127.0.0.1, hooks.internal" });
    expect(forbiddenAddress("10.9.9.9", allow)).toBeNull();
    expect(forbiddenAddress("::ffff:127.0.0.1", allow)).toBeNull();
    expect(forbiddenAddress("192.168.0.1", allow)).not.toBeNull();
    expect(urlRefusal("http://hooks.internal/x", allow)).toBeNull();
    expect(urlRefusal("http://other.internal/x", allow)).toMatch(/https/);
  });
});

describe("URLs at create", () => {
  it.each([
    ["https://example.com/hook", null],
    ["https://169.254.169.254/", /link-local/],
    ["https://localhost/x", /localhost/],
    ["http://example.com/", /https/],
    ["javascript:alert(1)", /https/],
    ["not a url", /absolute/],
  ])("%s", (url, expected) => {
    const why = urlRefusal(url, none);
    if (expected === null) expect(why).toBeNull();
    else expect(why).toMatch(expected);
  });
});

describe("retry schedule", () => {
  it("parses durations and refuses what is not one", () => {
    expect(parseDurations("5s,5m,30m,2h,1d,200ms", "X")).toEqual([5000, 300000, 1800000, 7200000, 86400000, 200]);
    expect(() => parseDurations("5s,soon", "X")).toThrow(/"soon" is not a duration/);
  });

  it("jitters each delay within ±20 % and stops when the schedule is spent", () => {
    const schedule = [5000, 300000];
    expect(nextAttemptDelay(1, schedule, () => 0)).toBe(4000);
    expect(nextAttemptDelay(1, schedule, () => 0.999999)).toBeCloseTo(6000, -1);
    expect(nextAttemptDelay(2, schedule, () => 0.5)).toBe(300000);
    expect(nextAttemptDelay(3, schedule)).toBeNull();
  });
});
