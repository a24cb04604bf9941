/*
 * The MJML the visual editor (GrapesJS) loads and gives back, apart from the editor itself so it can be
 * tested without a browser. The form field holds MJML source; the editor holds components. These turn
 * one into the other without losing what the code editor wrote: Liquid, the layout-fragment shape, and a
 * layout an engineer can read.
 */

/**
 * Elements the visual editor has no component for (grapesjs-mjml's list), or whose children the HTML
 * parser it uses would rearrange (a table's rows), or that set defaults for elements inside `mj-head`
 * (`mj-attributes`, whose `<mj-text>` would become a text block): a source using one stays in code.
 */
const UNSUPPORTED = [
  "mj-table",
  "mj-accordion",
  "mj-carousel",
  "mj-include",
  "mj-attributes",
  "mj-html-attributes",
] as const;

/** Elements whose content is HTML or text, kept on one line as written (never re-indented). */
const ENDING = new Set([
  "mj-text",
  "mj-button",
  "mj-raw",
  "mj-table",
  "mj-navbar-link",
  "mj-social-element",
  "mj-style",
  "mj-preview",
  "mj-title",
  "mj-accordion-title",
  "mj-accordion-text",
]);

/** A new mail's MJML: one section of text, the unsubscribe link in a second. */
export const STARTER_MJML = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text font-size="16px">Hi {{ user.data.first_name | default: 'there' }},</mj-text>
      </mj-column>
    </mj-section>
    <mj-section>
      <mj-column>
        <mj-text font-size="12px" color="#71717a"><a href="{{ unsubscribe_url }}">Unsubscribe</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

/** The unsupported elements a source uses, each once, in the order listed above. */
export function unsupportedElements(source: string): string[] {
  return UNSUPPORTED.filter((tag) => new RegExp(`<${tag}[\\s>/]`, "i").test(source));
}

/** True when the source holds MJML at all (a new template starts as HTML). */
export const isMjml = (source: string) => /<mj(ml|-[a-z-]+)[\s>/]/i.test(source);

/**
 * What the editor loads: a whole `<mjml>` document. A template inside a layout is a run of sections
 * (the layout holds `<mjml><mj-body>`): it is wrapped here and unwrapped by `fromEditor`. Self-closed
 * elements (`<mj-image … />`) are opened and closed, since GrapesJS parses MJML as HTML, where an
 * unknown element's `/>` does not close it and its next siblings would become its children.
 */
export function toEditor(source: string): { mjml: string; fragment: boolean } {
  const open = source.replace(/<(mj-[a-z-]+)((?:\s[^<>]*?)?)\s*\/>/gi, "<$1$2></$1>");
  const fragment = !/^\s*(<!--[\s\S]*?-->\s*)*<mjml[\s>]/i.test(open);
  return { mjml: fragment ? `<mjml><mj-body>${open}</mj-body></mjml>` : open, fragment };
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#039;": "'",
  "&#39;": "'",
  "&apos;": "'",
  "&#96;": "`",
  "&nbsp;": " ",
};

/**
 * Liquid as it was typed. GrapesJS escapes `&`, `<` and `>` in text (so `{% if a > 1 %}` would come
 * back as `{% if a &gt; 1 %}`, which Liquid refuses), and its text editor turns a typed double space
 * into `&nbsp;`: inside `{{ … }}` and `{% … %}` these are put back.
 */
export function restoreLiquid(html: string): string {
  return html.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, (liquid) =>
    liquid.replace(/&(amp|lt|gt|quot|#0?39|apos|#96|nbsp);/g, (e) => ENTITIES[e] ?? e).replace(/\u00a0/g, " "),
  );
}

/**
 * MJML laid out for a reader: one element per line, indented by depth; an element with HTML content
 * (`mj-text`, `mj-button`, `mj-raw`…) on one line with its content as it is; other text between
 * elements (a Liquid tag) on a line of its own. Whitespace between MJML elements means nothing to MJML.
 */
export function formatMjml(source: string): string {
  const out: string[] = [];
  let depth = 0;
  const tag = /<(\/?)(mjml|mj-[a-z-]+)\b((?:"[^"]*"|'[^']*'|[^'">])*?)(\/?)>/gi;
  let at = 0;
  const text = (s: string) => {
    const t = s.trim();
    if (t) out.push(`${"  ".repeat(depth)}${t}`);
  };
  for (let m = tag.exec(source); m; m = tag.exec(source)) {
    text(source.slice(at, m.index));
    const [whole, closing, rawName, , selfClosed] = m;
    const name = rawName!.toLowerCase();
    if (closing) {
      depth = Math.max(0, depth - 1);
      out.push(`${"  ".repeat(depth)}${whole}`);
      at = m.index + whole.length;
      continue;
    }
    if (selfClosed) {
      out.push(`${"  ".repeat(depth)}${whole}`);
      at = m.index + whole.length;
      continue;
    }
    if (ENDING.has(name)) {
      const close = source.toLowerCase().indexOf(`</${name}>`, m.index + whole.length);
      if (close >= 0) {
        const end = close + name.length + 3;
        const inner = source.slice(m.index + whole.length, close).trim();
        out.push(`${"  ".repeat(depth)}${whole}${inner}</${rawName}>`);
        at = end;
        tag.lastIndex = end;
        continue;
      }
    }
    out.push(`${"  ".repeat(depth)}${whole}`);
    depth++;
    at = m.index + whole.length;
  }
  text(source.slice(at));
  return out.join("\n");
}

/** The editor's MJML as the form stores it: Liquid restored, unwrapped if it was a fragment, laid out. */
export function fromEditor(exported: string, fragment: boolean): string {
  let mjml = restoreLiquid(exported.trim());
  if (fragment) {
    const body = /<mj-body\b[^>]*>([\s\S]*)<\/mj-body>/i.exec(mjml);
    mjml = body ? body[1]! : mjml;
  }
  return formatMjml(mjml);
}

/** A snippet's `{% render %}` tag alone in an element, as the visual editor's snippet block writes it. */
const SNIPPET_TAG = /^\s*(\{%-?\s*render\s+(['"])([a-z0-9][a-z0-9_-]{0,63})\2[^%]*-?%\})\s*$/;

/** The snippet an element's text renders, when that text is exactly one `{% render 'name' … %}`. */
export function snippetIn(text: string): { tag: string; name: string } | null {
  const m = SNIPPET_TAG.exec(text);
  return m ? { tag: m[1]!, name: m[3]! } : null;
}

/** The MJML a snippet block inserts: the render tag in an `mj-text`, so its HTML sits in the column's cell. */
export const snippetBlock = (name: string) => `<mj-text>{% render '${name}' %}</mj-text>`;
