"use client";
import type { Component, Editor } from "grapesjs";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/states";
import { SNIPPET_TYPE } from "./visual-blocks";

type Field = { attr: string; label: string; placeholder?: string; options?: string[]; size?: true };

/**
 * A size MJML accepts (`16px`, `50%`, or up to four of them for a padding). Checked here because the
 * canvas draws an element with a size it cannot read as nothing at all; other values (colours, links)
 * are the server's to judge at save, where a refusal names its line.
 */
const SIZE = /^\d+(\.\d+)?(px|%)?( \d+(\.\d+)?(px|%)?){0,3}$/;

/** The MJML attributes a marketer sets per element (names as MJML spells them; any other stays as written). */
const FIELDS: Record<string, { title: string; fields: Field[] }> = {
  "mj-body": {
    title: "Mail",
    fields: [
      { attr: "background-color", label: "Background", placeholder: "#f4f4f5" },
      { attr: "width", label: "Width", placeholder: "600px", size: true },
    ],
  },
  "mj-section": {
    title: "Section",
    fields: [
      { attr: "background-color", label: "Background", placeholder: "#ffffff" },
      { attr: "padding", label: "Padding", placeholder: "20px 0", size: true },
    ],
  },
  "mj-column": { title: "Column", fields: [{ attr: "background-color", label: "Background", placeholder: "#ffffff" }] },
  "mj-text": {
    title: "Text",
    fields: [
      { attr: "color", label: "Colour", placeholder: "#000000" },
      { attr: "font-size", label: "Size", placeholder: "13px", size: true },
      { attr: "align", label: "Align", options: ["left", "center", "right", "justify"] },
    ],
  },
  "mj-image": {
    title: "Image",
    fields: [
      { attr: "alt", label: "Alternative text", placeholder: "What the image shows" },
      { attr: "href", label: "Link", placeholder: "https://…" },
      { attr: "width", label: "Width", placeholder: "200px", size: true },
    ],
  },
  "mj-button": {
    title: "Button",
    fields: [
      { attr: "href", label: "Link", placeholder: "https://…" },
      { attr: "background-color", label: "Background", placeholder: "#414141" },
      { attr: "color", label: "Text colour", placeholder: "#ffffff" },
    ],
  },
  "mj-divider": {
    title: "Divider",
    fields: [
      { attr: "border-color", label: "Colour", placeholder: "#000000" },
      { attr: "border-width", label: "Thickness", placeholder: "4px", size: true },
    ],
  },
};

/** One attribute, written to the component when the field is left or Enter is pressed (not per keystroke). */
function AttrField({ component, field }: { component: Component; field: Field }) {
  const id = useId();
  const current = String(component.getAttributes()[field.attr] ?? "");
  const [v, setV] = useState(current);
  const [bad, setBad] = useState(false);
  useEffect(() => setV(current), [current]);
  const commit = (next: string) => {
    const t = next.trim();
    setBad(!!field.size && t !== "" && !SIZE.test(t));
    if (t === current || (field.size && t !== "" && !SIZE.test(t))) return;
    if (t) component.addAttributes({ [field.attr]: t });
    else component.removeAttributes(field.attr);
  };
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-zinc-600">
        {field.label}
      </label>
      {field.options ? (
        <select
          id={id}
          value={v || field.options[0]}
          onChange={(e) => {
            setV(e.target.value);
            commit(e.target.value);
          }}
          className={`${inputClass} mt-0.5 py-1 text-xs`}
        >
          {field.options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          value={v}
          placeholder={field.placeholder}
          maxLength={1000}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? `${id}-hint` : undefined}
          onChange={(e) => setV(e.target.value)}
          onBlur={() => commit(v)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              commit(v);
            }
          }}
          className={`${inputClass} mt-0.5 py-1 font-mono text-xs${bad ? " border-red-400" : ""}`}
        />
      )}
      {bad && (
        <p id={`${id}-hint`} className="mt-0.5 text-[11px] text-red-700">
          A size in px or %, like {field.placeholder}.
        </p>
      )}
    </div>
  );
}

/** Beside the canvas: what is selected, its settings, and removing it. */
export function VisualProperties({
  editor,
  onPickImage,
}: {
  editor: Editor | null;
  onPickImage: (image: Component) => void;
}) {
  const c = editor?.getSelected();
  const type = c?.get("type") as string | undefined;
  const spec = type ? FIELDS[type] : undefined;
  return (
    <aside
      aria-label="Block settings"
      className="space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm lg:h-[36rem] lg:overflow-y-auto"
    >
      {!c ? (
        <p className="text-xs text-zinc-500">Select a block in the mail to change it.</p>
      ) : (
        <>
          <p className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
            {type === SNIPPET_TYPE ? "Snippet" : (spec?.title ?? c.getName())}
          </p>
          {type === SNIPPET_TYPE && (
            <p className="text-xs text-zinc-600">
              Renders the project&apos;s snippet{" "}
              <code className="font-mono font-medium text-zinc-900">{c.get("snippet") as string}</code> here, as{" "}
              <code className="break-all font-mono">{c.get("liquidTag") as string}</code>.
            </p>
          )}
          {type === "mj-image" && (
            <div className="space-y-1">
              <p className="truncate text-xs text-zinc-600" title={String(c.getAttributes().src ?? "")}>
                {String(c.getAttributes().src ?? "").startsWith("data:")
                  ? "No image chosen yet."
                  : decodeURIComponent(
                      String(c.getAttributes().src ?? "")
                        .split("/")
                        .pop() ?? "",
                    )}
              </p>
              <Button size="sm" variant="secondary" onClick={() => onPickImage(c)}>
                Choose image…
              </Button>
            </div>
          )}
          {(type === "mj-text" || type === "mj-button") && (
            <p className="text-xs text-zinc-500">Double-click its text in the mail to edit it.</p>
          )}
          {spec?.fields.map((f) => (
            <AttrField key={`${c.cid}:${f.attr}`} component={c} field={f} />
          ))}
          {c.get("removable") !== false && (
            <Button size="sm" variant="ghost" className="text-red-700" onClick={() => c.remove()}>
              Remove {type === SNIPPET_TYPE ? "snippet" : (spec?.title.toLowerCase() ?? "block")}
            </Button>
          )}
        </>
      )}
    </aside>
  );
}
