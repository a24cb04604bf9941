import { describe, expect, it } from "vitest";
import { assignmentInput, assignmentPatchInput, scheduleName } from "./schemas";

const id = [{ external_id: "u" }];

describe("assignmentInput", () => {
  it("takes exactly one of scheduled_at and interval, and start_at only with interval", () => {
    expect(assignmentInput.safeParse({ name: "a", identifier: id, scheduled_at: "2100-01-01T00:00:00Z" }).success).toBe(
      true,
    );
    expect(
      assignmentInput.safeParse({ name: "a", identifier: id, interval: "1 day", start_at: "2100-01-01T00:00:00+02:00" })
        .success,
    ).toBe(true);
    expect(assignmentInput.safeParse({ name: "a", identifier: id }).success).toBe(false);
    expect(
      assignmentInput.safeParse({ name: "a", identifier: id, interval: "1 day", scheduled_at: "2100-01-01T00:00:00Z" })
        .success,
    ).toBe(false);
    expect(
      assignmentInput.safeParse({
        name: "a",
        identifier: id,
        scheduled_at: "2100-01-01T00:00:00Z",
        start_at: "2100-01-01T00:00:00Z",
      }).success,
    ).toBe(false);
    expect(assignmentInput.safeParse({ name: "a", identifier: id, scheduled_at: "tomorrow" }).success).toBe(false);
  });

  it("accepts a type that agrees with scheduled_at/interval and names the field when it contradicts them", () => {
    expect(assignmentInput.safeParse({ name: "a", identifier: id, interval: "1 day", type: "recurring" }).success).toBe(
      true,
    );
    expect(
      assignmentInput.safeParse({ name: "a", identifier: id, scheduled_at: "2100-01-01T00:00:00Z", type: "single" })
        .success,
    ).toBe(true);
    for (const body of [
      { name: "a", identifier: id, interval: "1 day", type: "single" },
      { name: "a", identifier: id, scheduled_at: "2100-01-01T00:00:00Z", type: "recurring" },
    ]) {
      const r = assignmentInput.safeParse(body);
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(["type"]);
    }
    expect(assignmentInput.safeParse({ name: "a", identifier: id, interval: "1 day", type: "weekly" }).success).toBe(
      false,
    );
  });

  it("rejects unknown fields and an empty identifier", () => {
    expect(assignmentInput.safeParse({ name: "a", identifier: id, interval: "1 day", kind: "recurring" }).success).toBe(
      false,
    );
    expect(assignmentInput.safeParse({ name: "a", identifier: [], interval: "1 day" }).success).toBe(false);
  });
});

describe("scheduleName", () => {
  it("allows event-name-safe names only", () => {
    for (const ok of ["anniversary", "trial_end", "plan.renewal", "a-b:c"])
      expect(scheduleName.safeParse(ok).success).toBe(true);
    for (const bad of ["", "has space", ".leading", "x".repeat(101)])
      expect(scheduleName.safeParse(bad).success).toBe(false);
  });
});

describe("assignmentPatchInput", () => {
  it("pairs each state with its own modes", () => {
    expect(assignmentPatchInput.safeParse({ state: "paused", mode: "after_next_interval" }).success).toBe(true);
    expect(assignmentPatchInput.safeParse({ state: "active", mode: "at_next_interval" }).success).toBe(true);
    expect(assignmentPatchInput.safeParse({ state: "paused", mode: "at_next_interval" }).success).toBe(false);
    expect(assignmentPatchInput.safeParse({ state: "active", mode: "after_next_interval" }).success).toBe(false);
    expect(assignmentPatchInput.safeParse({ state: "fired", mode: "immediately" }).success).toBe(false);
  });
});
