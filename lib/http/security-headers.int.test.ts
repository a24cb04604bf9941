import { describe, expect, it } from "vitest";
import { baseUrl } from "../../scripts/test/helpers";

describe("security headers (9.16)", () => {
  it.each(["/signin", "/projects", "/api/openapi.json", "/docs/api", "/auth/confirm?token=t&email=a%40b.c"])(
    "%s: CSP that forbids framing, nosniff, no HSTS over plain http",
    async (path) => {
      const res = await fetch(baseUrl + path, { redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toContain("unsafe-eval");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    },
  );

  it("sends HSTS when the request came over https through the proxy", async () => {
    const res = await fetch(`${baseUrl}/signin`, { headers: { "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
  });
});
