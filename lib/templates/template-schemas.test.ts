import { describe, expect, it } from "vitest";
import { createTemplateBody, updateTemplateBody } from "./schemas";

describe("template bodies", () => {
  it("default the locales on create only: a PATCH without them keeps the template's", () => {
    expect(createTemplateBody.parse({ name: "t", channel: "email" }).locales).toEqual({});
    const patch = updateTemplateBody.parse({ name: "renamed" });
    expect(patch).toEqual({ name: "renamed" });
    expect("locales" in patch).toBe(false);
    expect(updateTemplateBody.parse({ locales: { de: { subject: "Hallo" } } }).locales).toEqual({
      de: { subject: "Hallo" },
    });
  });
});
