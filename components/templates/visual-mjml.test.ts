import mjml2html from "mjml";
import { describe, expect, it } from "vitest";
import {
  formatMjml,
  fromEditor,
  isMjml,
  restoreLiquid,
  snippetBlock,
  snippetIn,
  STARTER_MJML,
  toEditor,
  unsupportedElements,
} from "./visual-mjml";

describe("the visual editor's MJML", () => {
  it("opens self-closed elements, since GrapesJS parses MJML as HTML", () => {
    const { mjml, fragment } = toEditor(
      '<mjml><mj-body><mj-section><mj-column><mj-image src="a.png" /><mj-divider/></mj-column></mj-section></mj-body></mjml>',
    );
    expect(fragment).toBe(false);
    expect(mjml).toContain('<mj-image src="a.png"></mj-image><mj-divider></mj-divider>');
  });

  it("wraps a layout's fragment for the editor and unwraps it again", () => {
    const source = "<mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section>";
    const { mjml, fragment } = toEditor(source);
    expect(fragment).toBe(true);
    expect(mjml).toBe(`<mjml><mj-body>${source}</mj-body></mjml>`);
    expect(fromEditor(mjml, true)).toBe(
      "<mj-section>\n  <mj-column>\n    <mj-text>Hi</mj-text>\n  </mj-column>\n</mj-section>",
    );
  });

  it("puts back the Liquid GrapesJS escaped, and nothing outside Liquid", () => {
    expect(
      restoreLiquid(
        "a &amp; b {% if user.data.n &gt; 1 and x &lt; 2 %}{{ x | default:&nbsp;&#039;y&#039; }}{% endif %} &lt;b&gt;",
      ),
    ).toBe("a &amp; b {% if user.data.n > 1 and x < 2 %}{{ x | default: 'y' }}{% endif %} &lt;b&gt;");
    expect(restoreLiquid("{{\u00a0user.email\u00a0}}")).toBe("{{ user.email }}");
  });

  it("lays MJML out one element a line, with text elements' content kept as it is", () => {
    const out = formatMjml(
      '<mjml><mj-body><mj-raw>{% if user.data.vip %}</mj-raw><mj-section background-color="#fff"><mj-column><mj-text align="center"><p>Hi <b>{{ user.data.first_name }}</b></p>\n<p>two</p></mj-text><mj-image src="x.png"/></mj-column></mj-section><mj-raw>{% endif %}</mj-raw></mj-body></mjml>',
    );
    expect(out).toBe(
      [
        "<mjml>",
        "  <mj-body>",
        "    <mj-raw>{% if user.data.vip %}</mj-raw>",
        '    <mj-section background-color="#fff">',
        "      <mj-column>",
        '        <mj-text align="center"><p>Hi <b>{{ user.data.first_name }}</b></p>\n<p>two</p></mj-text>',
        '        <mj-image src="x.png"/>',
        "      </mj-column>",
        "    </mj-section>",
        "    <mj-raw>{% endif %}</mj-raw>",
        "  </mj-body>",
        "</mjml>",
      ].join("\n"),
    );
  });

  it("a document through the editor's shape compiles to the same HTML and keeps its Liquid", async () => {
    const source =
      "<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ user.data.first_name | default: 'friend' }} {% if user.data.n > 1 %}again{% endif %}</mj-text><mj-button href=\"{{ unsubscribe_url }}\">Go</mj-button></mj-column></mj-section></mj-body></mjml>";
    const escaped = source.replace("n > 1", "n &gt; 1");
    const back = fromEditor(escaped, false);
    expect(back).toContain("{% if user.data.n > 1 %}again{% endif %}");
    expect(back).toContain("{{ user.data.first_name | default: 'friend' }}");
    const a = await mjml2html(source, { validationLevel: "strict" });
    const b = await mjml2html(back, { validationLevel: "strict" });
    expect(b.html).toBe(a.html);
  });

  it("finds a snippet block's render tag, and only a tag standing alone", () => {
    expect(snippetIn(" {% render 'footer' %} ")).toEqual({ tag: "{% render 'footer' %}", name: "footer" });
    expect(snippetIn('{%- render "legal-2", who: user.email -%}')).toEqual({
      tag: '{%- render "legal-2", who: user.email -%}',
      name: "legal-2",
    });
    expect(snippetIn("Hi {% render 'footer' %}")).toBeNull();
    expect(snippetIn("{% render user.data.x %}")).toBeNull();
    expect(snippetBlock("footer")).toBe("<mj-text>{% render 'footer' %}</mj-text>");
  });

  it("names the elements it cannot edit, and tells MJML from HTML", async () => {
    expect(
      unsupportedElements(
        "<mjml><mj-head><mj-attributes><mj-all /></mj-attributes></mj-head><mj-body><mj-table></mj-table></mj-body></mjml>",
      ),
    ).toEqual(["mj-table", "mj-attributes"]);
    expect(unsupportedElements(STARTER_MJML)).toEqual([]);
    expect(isMjml(STARTER_MJML)).toBe(true);
    expect(isMjml("<p>Hi</p>")).toBe(false);
    expect((await mjml2html(STARTER_MJML, { validationLevel: "strict" })).errors).toEqual([]);
  });
});
