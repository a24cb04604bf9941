import { describe, expect, it } from "vitest";
import { compilePart, renderPart, TemplateError } from "./liquid";

describe("the Liquid engine's limits", () => {
  it("refuses a syntax error at save naming line and column", () => {
    expect(() => compilePart("line one\n  {{ user.email ", "text")).toThrow(/line 2, column 3/);
  });

  it("never reaches a prototype or a constructor", () => {
    const scope = { user: { email: "a@example.com", data: {} } };
    expect(
      renderPart("{{ user.constructor }}|{{ user.__proto__ }}|{{ user.constructor.name }}|{{ user.email }}", scope),
    ).toBe("|||a@example.com");
  });

  it("stops a billion-step loop and a doubling string with an error, quickly", () => {
    const started = Date.now();
    expect(() => renderPart("{% for i in (1..1000000000) %}x{% endfor %}", {})).toThrow(TemplateError);
    expect(() =>
      renderPart(
        '{% assign a = "xxxxxxxxxxxxxxxx" %}{% for i in (1..40) %}{% assign a = a | append: a %}{% endfor %}{{ a }}',
        {},
      ),
    ).toThrow(/limit exceeded/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("escapes outputs in html and not in text", () => {
    const scope = { user: { data: { name: "<b>Bo</b>" } } };
    expect(renderPart("{{ user.data.name }}", scope, { html: true })).toBe("&lt;b&gt;Bo&lt;/b&gt;");
    expect(renderPart("{{ user.data.name }}", scope)).toBe("<b>Bo</b>");
  });

  it("finds no partial named like an Object.prototype member in include or render", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])
      for (const tag of ["include", "render"]) {
        const source = `{% ${tag} '${name}' %}`;
        expect(() => renderPart(source, {}), source).toThrow(TemplateError);
        expect(() => renderPart(source, {}, { html: true }), source).toThrow(TemplateError);
      }
  });
});
