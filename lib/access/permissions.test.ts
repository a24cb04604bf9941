import { describe, expect, it } from "vitest";
import { can } from "./permissions";
import { roleAtLeast } from "./roles";

describe("roles and permissions", () => {
  it("orders roles support < client < editor < admin", () => {
    expect(roleAtLeast("admin", "editor")).toBe(true);
    expect(roleAtLeast("client", "support")).toBe(true);
    expect(roleAtLeast("support", "client")).toBe(false);
    expect(roleAtLeast("editor", "admin")).toBe(false);
  });

  it("lets support read but not write, client ingest, and only admin manage access", () => {
    expect(can("support", "users.read")).toBe(true);
    expect(can("support", "users.write")).toBe(false);
    expect(can("client", "events.write")).toBe(true);
    expect(can("client", "schedules.write")).toBe(false);
    expect(can("editor", "journeys.write")).toBe(true);
    expect(can("editor", "members.write")).toBe(false);
    expect(can("admin", "keys.write")).toBe(true);
  });
});
