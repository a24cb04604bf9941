import { describe, expect, it } from "vitest";
import { safePath } from "./safe-path";

const ORIGIN = "https://relay.example.com";

describe("safePath", () => {
  it("keeps a path on our origin, with its query and fragment", () => {
    expect(safePath("/projects/1/users?x=1#top", ORIGIN)).toBe("/projects/1/users?x=1#top");
    expect(safePath("/invites")).toBe("/invites");
  });

  it("turns an absolute URL on our origin into its path", () => {
    expect(safePath("https://relay.example.com/projects/2", ORIGIN)).toBe("/projects/2");
  });

  it.each([
    "//evil.example",
    "//evil.example/projects",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "https://evil.example/projects",
    "https://relay.example.com.evil.example/",
    "http://relay.example.com/projects",
    "javascript:alert(1)",
    "evil.example",
    "",
    `/${"a".repeat(5000)}`,
  ])("sends %j to /projects", (target) => {
    expect(safePath(target, ORIGIN)).toBe("/projects");
  });

  it("refuses anything that is not a string", () => {
    expect(safePath(null, ORIGIN)).toBe("/projects");
    expect(safePath(["/x"], ORIGIN)).toBe("/projects");
  });

  it("refuses absolute URLs when no origin is known", () => {
    expect(safePath("https://relay.example.com/projects")).toBe("/projects");
  });
});
