import type { Component, Editor } from "grapesjs";
import { snippetBlock, snippetIn } from "./visual-mjml";

/*
 * What the visual editor adds to GrapesJS and grapesjs-mjml: the blocks a mail is built from, a
 * snippet component (the `{% render %}` tag the renderer runs, shown as a labelled box), and where a
 * clicked block goes. Loaded only with GrapesJS (visual-editor.tsx imports it after GrapesJS itself).
 */

/** A grey box to stand for an image not chosen yet (an inline SVG: the console loads nothing from elsewhere). */
export const IMAGE_PLACEHOLDER = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="560" height="200"><rect width="100%" height="100%" fill="#e4e4e7"/><text x="50%" y="50%" fill="#71717a" font-family="sans-serif" font-size="20" text-anchor="middle" dominant-baseline="middle">Choose an image</text></svg>',
)}`;

export type BlockKind = "section" | "content";
export interface BlockDef {
  id: string;
  label: string;
  /** Sections go into the body; content into a column (a new section of its own if none is selected). */
  kind: BlockKind;
  content: string;
}

const TEXT = '<mj-text font-size="15px" line-height="1.5">Write something here.</mj-text>';

export const BASE_BLOCKS: BlockDef[] = [
  {
    id: "section",
    label: "Section",
    kind: "section",
    content: `<mj-section><mj-column>${TEXT}</mj-column></mj-section>`,
  },
  {
    id: "columns",
    label: "2 columns",
    kind: "section",
    content: `<mj-section><mj-column>${TEXT}</mj-column><mj-column>${TEXT}</mj-column></mj-section>`,
  },
  { id: "text", label: "Text", kind: "content", content: TEXT },
  { id: "image", label: "Image", kind: "content", content: `<mj-image src="${IMAGE_PLACEHOLDER}" alt=""></mj-image>` },
  {
    id: "button",
    label: "Button",
    kind: "content",
    content: '<mj-button href="#" background-color="#4f46e5" border-radius="6px">Button</mj-button>',
  },
  {
    id: "divider",
    label: "Divider",
    kind: "content",
    content: '<mj-divider border-width="1px" border-color="#e4e4e7"></mj-divider>',
  },
];

export const snippetBlockDef = (name: string): BlockDef => ({
  id: `snippet:${name}`,
  label: name,
  kind: "content",
  content: snippetBlock(name),
});

export const SNIPPET_TYPE = "relay-snippet";
const inColumn = '[data-gjs-type="mj-column"], [data-gjs-type="mj-hero"]';

/**
 * A snippet in the mail: an `mj-text` (or `mj-raw`) holding one `{% render 'name' %}` and nothing else.
 * It is written back exactly as it was read (its attributes and its tag, arguments included); the canvas
 * shows its name, never its body (the renderer fills it in per message).
 */
function addSnippetType(editor: Editor) {
  editor.Components.addType(SNIPPET_TYPE, {
    isComponent: (el) => {
      const tag = el.tagName?.toLowerCase();
      if ((tag !== "mj-text" && tag !== "mj-raw") || el.children.length) return false;
      const found = snippetIn(el.textContent ?? "");
      return found
        ? { type: SNIPPET_TYPE, tagName: tag, snippet: found.name, liquidTag: found.tag, components: [] }
        : false;
    },
    model: {
      defaults: {
        name: "Snippet",
        draggable: inColumn,
        droppable: false,
        editable: false,
        stylable: false,
        copyable: true,
      },
      init() {
        this.set("name", `Snippet: ${this.get("snippet")}`);
      },
      toHTML() {
        const tag = this.get("tagName") as string;
        const attrs = Object.entries(this.getAttributes())
          .filter(([k]) => k !== "id")
          .map(([k, v]) => ` ${k}="${String(v).replace(/"/g, "&quot;")}"`)
          .join("");
        return `<${tag}${attrs}>${this.get("liquidTag") as string}</${tag}>`;
      },
    },
    view: {
      // A table row, as grapesjs-mjml draws the elements of a column (the model's tagName is the MJML one).
      tagName() {
        return "tr";
      },
      attributes: { style: "display: table; width: 100%" },
      onRender() {
        const td = document.createElement("td");
        td.style.cssText = "padding: 8px 25px";
        const box = document.createElement("div");
        box.style.cssText =
          "border: 1px dashed #818cf8; background: #eef2ff; color: #3730a3; border-radius: 6px; padding: 10px 12px; font: 13px/1.4 system-ui, sans-serif";
        // textContent: the name is the project's own text, never parsed as markup in the canvas.
        box.textContent = `Snippet · ${this.model.get("snippet") as string}`;
        td.appendChild(box);
        this.el.replaceChildren(td);
      },
    },
  });
}

/**
 * The relay plugin for GrapesJS: the snippet type, and images chosen from the project's documents
 * (`pickImage`) instead of GrapesJS's own asset manager, on a double-click and when an image block lands.
 */
export function relayPlugin(opts: { pickImage: (image: Component) => void }) {
  return (editor: Editor) => {
    addSnippetType(editor);
    editor.Components.addType("mj-image", {
      view: {
        onActive(ev?: Event) {
          ev?.stopPropagation();
          opts.pickImage(this.model);
        },
      },
    });
  };
}

/** The nearest ancestor (or the component itself) of one of these types. */
function closest(c: Component | undefined, types: string[]): Component | undefined {
  for (let at = c; at; at = at.parent()) if (types.includes(at.get("type") as string)) return at;
  return undefined;
}

/**
 * Where a clicked block goes: a section after the selected one (else at the end of the body); content
 * after the selected element in its column, into the selected column, or in a new section at the end.
 * Returns the component added (its innermost content for a wrapped one), to be selected.
 */
export function insertBlock(editor: Editor, block: BlockDef): Component | undefined {
  const body = editor.getWrapper()?.findType("mj-body")[0];
  if (!body) return undefined;
  const selected = editor.getSelected();
  if (block.kind === "section") {
    const section = closest(selected, ["mj-section", "mj-wrapper", "mj-hero", "mj-raw"]);
    const top = section && section.parent() === body ? section : undefined;
    return body.append(block.content, top ? { at: top.index() + 1 } : {})[0];
  }
  const column = closest(selected, ["mj-column", "mj-hero"]);
  if (column) {
    const child = selected && selected !== column && selected.parent() === column ? selected : undefined;
    return column.append(block.content, child ? { at: child.index() + 1 } : {})[0];
  }
  const [section] = body.append(`<mj-section><mj-column>${block.content}</mj-column></mj-section>`);
  return section?.findType("mj-column")[0]?.components().at(0);
}
