import { describe, expect, it } from "vitest";
import { effectiveState } from "./group-view";
import { maskEmail, maskPhone } from "./mask-contact";

describe("effectiveState", () => {
  it("uses the explicit state, else the policy's default", () => {
    expect(effectiveState("unsubscribed", "opt_out", false)).toBe("unsubscribed");
    expect(effectiveState("subscribed", "opt_in", false)).toBe("subscribed");
    expect(effectiveState(null, "opt_out", false)).toBe("subscribed");
    expect(effectiveState(null, "opt_in", false)).toBe("unsubscribed");
  });
  it("never sends through a channel opt-out, even to an explicit subscriber", () => {
    expect(effectiveState("subscribed", "opt_out", true)).toBe("unsubscribed");
    expect(effectiveState(null, "opt_out", true)).toBe("unsubscribed");
  });
});

describe("masking contacts on public pages", () => {
  it("keeps the first letter and the domain of an e-mail, and the last four digits of a phone", () => {
    expect(maskEmail("ada.lovelace@example.com")).toBe("a••••••@example.com");
    expect(maskEmail("a@example.com")).toBe("a••@example.com");
    expect(maskEmail(null)).toBeNull();
    expect(maskPhone("+14155550123")).toBe("0123");
  });
});
