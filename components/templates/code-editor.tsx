"use client";
import { html } from "@codemirror/lang-html";
import { liquid } from "@codemirror/lang-liquid";
import { LanguageSupport, StreamLanguage } from "@codemirror/language";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, placeholder as placeholderText } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { useEffect, useRef } from "react";

export type CodeLanguage = "html" | "mjml" | "text";

/** The MJML elements, so the HTML grammar completes and closes them as it does its own tags. */
const MJML_TAGS = [
  "mjml",
  "mj-head",
  "mj-body",
  "mj-attributes",
  "mj-all",
  "mj-class",
  "mj-style",
  "mj-font",
  "mj-preview",
  "mj-title",
  "mj-breakpoint",
  "mj-section",
  "mj-column",
  "mj-group",
  "mj-wrapper",
  "mj-hero",
  "mj-text",
  "mj-image",
  "mj-button",
  "mj-divider",
  "mj-spacer",
  "mj-table",
  "mj-social",
  "mj-social-element",
  "mj-navbar",
  "mj-navbar-link",
  "mj-raw",
  "mj-include",
];

/** Text with no grammar of its own, for the text part: only the Liquid in it is highlighted. */
const plainText = new LanguageSupport(
  StreamLanguage.define({
    token: (stream) => {
      stream.skipToEnd();
      return null;
    },
  }),
);

/**
 * Liquid over its base language: HTML, MJML read as HTML with the mj-* elements known (MJML is XML, and
 * the HTML grammar tolerates the Liquid tags inside attributes that an XML one would reject), or plain text.
 */
function languageOf(lang: CodeLanguage): Extension {
  if (lang === "text") return liquid({ base: plainText });
  const base = html(
    lang === "mjml"
      ? { extraTags: Object.fromEntries(MJML_TAGS.map((t) => [t, {}])), matchClosingTags: true, autoCloseTags: true }
      : {},
  );
  return liquid({ base });
}

const theme = EditorView.theme({
  "&": { fontSize: "12px", border: "1px solid rgb(212 212 216)", borderRadius: "0.375rem", background: "white" },
  "&.cm-focused": { outline: "2px solid rgb(99 102 241)", outlineOffset: "-1px" },
  ".cm-scroller": { fontFamily: "var(--font-geist-mono), ui-monospace, monospace", lineHeight: "1.25rem" },
  ".cm-content": { minHeight: "var(--cm-min-height, 8rem)" },
  ".cm-gutters": { background: "rgb(250 250 250)", borderRight: "1px solid rgb(228 228 231)" },
});

/**
 * A CodeMirror 6 editor for a template part: Liquid highlighted over HTML, MJML or text, line numbers,
 * bracket matching, undo. Controlled: `value` replaces the document when it differs (a reset after save, a
 * new locale tab), and every edit calls `onChange`. The content element carries `label` for screen readers.
 */
export function CodeEditor({
  value,
  onChange,
  language,
  label,
  readOnly = false,
  invalid = false,
  minHeight = "8rem",
  placeholder,
}: {
  value: string;
  onChange: (v: string) => void;
  language: CodeLanguage;
  label: string;
  readOnly?: boolean;
  invalid?: boolean;
  minHeight?: string;
  placeholder?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const change = useRef(onChange);
  change.current = onChange;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once per language; value syncs below.
  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          languageOf(language),
          theme,
          EditorView.lineWrapping,
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({
            "aria-label": label,
            ...(invalid ? { "aria-invalid": "true" } : {}),
          }),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) change.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [language, readOnly, label, invalid]);
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);
  return (
    <div
      ref={host}
      className={invalid ? "rounded-md ring-1 ring-red-400" : undefined}
      style={{ "--cm-min-height": minHeight } as React.CSSProperties}
    />
  );
}
