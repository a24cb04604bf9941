"use client";
import dynamic from "next/dynamic";
import { type RefObject, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Banner, LoadingRows } from "@/components/ui/states";
import { CodeEditor } from "./code-editor";
import { isMjml, STARTER_MJML, unsupportedElements } from "./visual-mjml";

// GrapesJS and its MJML plugin (2.3 MB of minified script) load only when a visual editor opens, in the browser.
const VisualEditor = dynamic(() => import("./visual-editor").then((m) => m.VisualEditor), {
  ssr: false,
  loading: () => <LoadingRows rows={6} label="Loading the visual editor" />,
});

/**
 * An MJML part, as code (CodeMirror) or in the visual block editor: one source, two views of it. The
 * visual view opens only on a source it can edit; otherwise it says why, and offers a starting mail when
 * the part holds no MJML yet. `error` is the server's refusal of this part (a compile error names its line).
 */
export function MjmlPart({
  value,
  onChange,
  label,
  readOnly,
  error,
  minHeight,
  visual,
  setVisual,
  flush,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  readOnly: boolean;
  error?: string;
  minHeight: string;
  visual: boolean;
  setVisual: (v: boolean) => void;
  flush: RefObject<(() => Promise<void>) | null>;
}) {
  // The source the visual editor shows: what it last wrote, or what it opened on. A value that differs
  // came from elsewhere (a restored version): the editor opens again on it.
  const shown = useRef(value);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (value !== shown.current) {
      shown.current = value;
      if (visual) setGeneration((g) => g + 1);
    }
  }, [value, visual]);
  const fromVisual = (v: string) => {
    shown.current = v;
    onChange(v);
  };
  // Whether the visual editor can open is decided on the source it opens on, not on what it writes
  // (removing every block of a layout's fragment leaves no MJML, and the editor must stay open).
  const [opening, setOpening] = useState(value);
  const blocked = unsupportedElements(opening);
  const mjml = isMjml(opening);
  const toVisual = () => {
    shown.current = value;
    setOpening(value);
    setGeneration((g) => g + 1);
    setVisual(true);
  };
  const toCode = async () => {
    await flush.current?.();
    setVisual(false);
  };
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <span className="block text-sm font-medium text-zinc-700">{label}</span>
        {!readOnly && (
          <div className="flex rounded-md border border-zinc-300 text-xs" role="group" aria-label="MJML editor">
            {(["Code", "Visual"] as const).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={visual === (m === "Visual")}
                onClick={() => (m === "Visual" ? !visual && toVisual() : toCode())}
                className={`px-2.5 py-1 first:rounded-l-md last:rounded-r-md ${visual === (m === "Visual") ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-50"}`}
              >
                {m}
              </button>
            ))}
          </div>
        )}
      </div>
      {visual && error && (
        <Banner tone="error" className="mt-2">
          The MJML was not saved: {error}. Line numbers are those of the code view.
        </Banner>
      )}
      <div className="mt-1">
        {!visual ? (
          <CodeEditor
            value={value}
            onChange={onChange}
            language="mjml"
            label={label}
            readOnly={readOnly}
            invalid={!!error}
            minHeight={minHeight}
          />
        ) : blocked.length ? (
          <div className="space-y-2 rounded-md border border-zinc-200 bg-zinc-50 p-4 text-sm text-zinc-700">
            <p>
              The visual editor does not edit {blocked.map((t) => `<${t}>`).join(", ")}: this part stays in the code
              editor, so nothing of it is lost.
            </p>
            <Button size="sm" variant="secondary" onClick={() => setVisual(false)}>
              Back to code
            </Button>
          </div>
        ) : !mjml ? (
          <div className="space-y-2 rounded-md border border-zinc-200 bg-zinc-50 p-4 text-sm text-zinc-700">
            <p>This part holds no MJML yet. Start from a mail with a greeting and an unsubscribe link?</p>
            <Button
              size="sm"
              onClick={() => {
                onChange(STARTER_MJML);
                shown.current = STARTER_MJML;
                setOpening(STARTER_MJML);
              }}
            >
              Start a mail
            </Button>
          </div>
        ) : (
          <VisualEditor key={generation} value={value} onChange={fromVisual} flush={flush} />
        )}
      </div>
    </div>
  );
}
