import { afterEach, describe, expect, it } from "vitest";
import { clientAddress, PEER_HEADER } from "./client-address";
import { Budget, perSecond, perWindow } from "./rate-limit";

const subject = () => `s-${Math.random()}`;
const takeN = async (b: Budget, who: string, n: number) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await b.take(who));
  return out;
};

describe("memory budgets (rate-limiter-flexible)", () => {
  it("allows the burst at once, then refuses with a Retry-After", async () => {
    const b = new Budget("t-burst", perSecond(2, 5), "memory");
    const who = subject();
    const ds = await takeN(b, who, 6);
    expect(ds.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(ds[0]!.limit).toBe(5);
    expect(ds[5]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(ds[5]!.remaining).toBe(0);
    // Another subject has its own budget.
    expect((await b.take(subject())).allowed).toBe(true);
  });

  it("refills the sustained rate each second", async () => {
    const b = new Budget("t-refill", perSecond(3, 3), "memory");
    const who = subject();
    expect((await takeN(b, who, 4)).map((d) => d.allowed)).toEqual([true, true, true, false]);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await takeN(b, who, 4)).map((d) => d.allowed)).toEqual([true, true, true, false]);
  });

  it("counts a window budget (sign-in mail) without a burst layer", async () => {
    const b = new Budget("t-window", perWindow(2, 3600), "memory");
    const who = subject();
    const ds = await takeN(b, who, 3);
    expect(ds.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(ds[2]!.retryAfterSeconds).toBeGreaterThan(3500);
  });
});

describe("client address", () => {
  afterEach(() => delete process.env.TRUST_PROXY);
  const req = (h: Record<string, string>) => new Request("http://x/", { headers: h });

  it("ignores X-Forwarded-For unless TRUST_PROXY is set", () => {
    expect(clientAddress(req({ "x-forwarded-for": "6.6.6.6", [PEER_HEADER]: "10.0.0.1" }))).toBe("10.0.0.1");
    process.env.TRUST_PROXY = "1";
    expect(clientAddress(req({ "x-forwarded-for": "6.6.6.6, 1.2.3.4", [PEER_HEADER]: "10.0.0.1" }))).toBe("1.2.3.4");
    process.env.TRUST_PROXY = "2";
    expect(clientAddress(req({ "x-forwarded-for": "6.6.6.6, 1.2.3.4", [PEER_HEADER]: "10.0.0.1" }))).toBe("6.6.6.6");
    process.env.TRUST_PROXY = "false";
    expect(clientAddress(req({ "x-forwarded-for": "6.6.6.6" }))).toBe("unknown");
  });
});
