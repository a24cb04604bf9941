import { describe, expect, it } from "vitest";
import { eventMetric, rollupOf } from "./rollup-of";

describe("rollupOf", () => {
  it("counts a batch per minute and origin, with user.created also as a new user, sorted by metric then minute", () => {
    const r = rollupOf([
      { name: "Order Placed", receivedAt: "2026-11-23 10:00:59.900+00" },
      { name: "Order Placed", receivedAt: "2026-11-23T10:01:00.000Z", times: 3 },
      { name: "user.created", receivedAt: "2026-11-23T10:00:01.000Z" },
      { name: "scheduled.trial_end", receivedAt: "2026-11-23T10:00:02.000Z" },
    ]);
    expect(r).toEqual([
      { k: "events.client", m: "2026-11-23T10:00:00.000Z", c: 1 },
      { k: "events.client", m: "2026-11-23T10:01:00.000Z", c: 3 },
      { k: "events.scheduled", m: "2026-11-23T10:00:00.000Z", c: 1 },
      { k: "events.system", m: "2026-11-23T10:00:00.000Z", c: 1 },
      { k: "users.created", m: "2026-11-23T10:00:00.000Z", c: 1 },
    ]);
  });

  it("classifies names by the reserved prefixes", () => {
    expect(eventMetric("list.user.added")).toBe("events.system");
    expect(eventMetric("scheduled.x")).toBe("events.scheduled");
    expect(eventMetric("userish")).toBe("events.client");
  });
});
