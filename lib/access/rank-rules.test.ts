import { describe, expect, it } from "vitest";
import { RuleBroken } from "@/lib/http/errors";
import { assertMayGrant, assertNotOutranked } from "./rank-rules";

const as = (role: "support" | "client" | "editor" | "admin") => ({
  kind: "admin" as const,
  adminId: "a",
  email: "a@x",
  role,
});

describe("rank rules", () => {
  it("lets a caller grant roles at or below their own and refuses above", () => {
    expect(() => assertMayGrant(as("editor"), "editor")).not.toThrow();
    expect(() => assertMayGrant(as("editor"), "support")).not.toThrow();
    expect(() => assertMayGrant(as("editor"), "admin")).toThrow(RuleBroken);
    expect(() => assertMayGrant(as("support"), "client")).toThrow(/above your own/);
    expect(() => assertMayGrant({ kind: "system" }, "admin")).not.toThrow();
  });
  it("refuses to touch a member who outranks the caller", () => {
    expect(() => assertNotOutranked(as("admin"), "admin")).not.toThrow();
    expect(() => assertNotOutranked(as("editor"), "admin")).toThrow(/outranks/);
  });
});
