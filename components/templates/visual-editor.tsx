"use client";
import "grapesjs/dist/css/grapes.min.css";
import "./visual-editor.css";
import { useQuery } from "@tanstack/react-query";
import type { Component, Editor } from "grapesjs";
import { type RefObject, useEffect, useRef, useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import { Button } from "@/components/ui/button";
import { ErrorBanner } from "@/components/ui/states";
import { DocumentPicker } from "./document-picker";
import { BASE_BLOCKS, type BlockDef, insertBlock, relayPlugin, snippetBlockDef } from "./visual-blocks";
import { fromEditor, toEditor } from "./visual-mjml";
import { VisualProperties } from "./visual-properties";

type Device = "Desktop" | "Mobile";

/**
 * The visual block editor (GrapesJS with grapesjs-mjml) over one MJML part: the same source the code
 * editor shows, read once when it opens and written back, laid out, on every change. Blocks are added by
 * a click (after the selection) or dragged onto the canvas; text is edited in place; images come from
 * the project's documents; each of the project's snippets is a block that inserts its `{% render %}`.
 * `flush` (set here) ends a text edit in progress and writes it back, before a save or a switch to code.
 * This module is loaded only when the visual mode opens (next/dynamic, no SSR): GrapesJS stays out of
 * every other page's scripts.
 */
export function VisualEditor({
  value,
  onChange,
  flush,
}: {
  value: string;
  onChange: (mjml: string) => void;
  flush: RefObject<(() => Promise<void>) | null>;
}) {
  const project = useProject();
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [device, setDevice] = useState<Device>("Desktop");
  const [picking, setPicking] = useState<Component | null>(null);
  const [, setTick] = useState(0);
  const change = useRef(onChange);
  change.current = onChange;
  const initial = useRef(value);
  const snippets = useQuery({
    queryKey: ["admin", project.id, "/snippets"],
    queryFn: () => apiFetch<Page<{ id: string; name: string }>>(adminPath(project.id, "/snippets?limit=100")),
  });

  useEffect(() => {
    let cancelled = false;
    let made: Editor | null = null;
    (async () => {
      const [{ default: grapesjs }, mjmlModule] = await Promise.all([import("grapesjs"), import("grapesjs-mjml")]);
      if (cancelled || !host.current) return;
      // The package is UMD: its default export arrives wrapped once more under some bundlers.
      const mjmlPlugin = ((mjmlModule.default as unknown as { default?: typeof mjmlModule.default }).default ??
        mjmlModule.default) as typeof mjmlModule.default;
      const { mjml, fragment } = toEditor(initial.current);
      const ed = grapesjs.init({
        container: host.current,
        height: "100%",
        width: "auto",
        fromElement: false,
        storageManager: false,
        panels: { defaults: [] },
        blockManager: { appendTo: "" },
        layerManager: { appendTo: "" },
        selectorManager: { componentFirst: true },
        deviceManager: {
          devices: [
            { id: "Desktop", name: "Desktop", width: "" },
            { id: "Mobile", name: "Mobile", width: "375px", widthMedia: "480px" },
          ],
        },
        plugins: [
          (e: Editor) =>
            mjmlPlugin(e, {
              blocks: [],
              resetDevices: false,
              resetStyleManager: false,
              useCustomTheme: false,
              hideSelector: true,
            }),
          relayPlugin({ pickImage: (image) => setPicking(image) }),
        ],
        components: mjml,
      });
      made = ed;
      ed.onReady(() => {
        if (cancelled) return;
        const read = () => fromEditor(ed.getHtml(), fragment);
        // What the editor makes of the source untouched: while it still says that, the form keeps the
        // source as it was typed (opening the editor alone changes nothing).
        const baseline = read();
        const emit = () => {
          const now = read();
          change.current(now === baseline ? initial.current : now);
        };
        ed.on("update", emit);
        ed.on("component:selected component:deselected component:update", () => setTick((t) => t + 1));
        ed.on("block:drag:stop", (added, block) => {
          if (added && block?.getId() === "image") setPicking(added);
        });
        // A name for the canvas frame, for assistive technology (and the tests, which find it by it).
        ed.Canvas.getFrameEl()?.setAttribute("title", "Mail canvas");
        flush.current = async () => {
          const editing = ed.getEditing();
          const view = editing?.getView() as unknown as { disableEditing?: () => Promise<void> } | undefined;
          await view?.disableEditing?.();
          emit();
        };
        setEditor(ed);
      });
    })().catch((err: unknown) => setFailed(err instanceof Error ? err.message : String(err)));
    return () => {
      cancelled = true;
      flush.current = null;
      made?.destroy();
    };
  }, [flush]);

  // The blocks GrapesJS drags: registered (without its own palette) so a drag from ours can start.
  const blocks: BlockDef[] = [...BASE_BLOCKS, ...(snippets.data?.data ?? []).map((s) => snippetBlockDef(s.name))];
  useEffect(() => {
    if (!editor) return;
    for (const b of blocks)
      if (!editor.Blocks.get(b.id)) editor.Blocks.add(b.id, { label: b.label, content: b.content, select: true });
  });

  const add = (b: BlockDef) => {
    if (!editor) return;
    const c = insertBlock(editor, b);
    if (c) {
      editor.select(c);
      if (b.id === "image") setPicking(c);
    }
  };
  const palette = (list: BlockDef[]) =>
    list.map((b) => (
      <button
        key={b.id}
        type="button"
        draggable={!!editor}
        disabled={!editor}
        onClick={() => add(b)}
        onDragStart={(e) => {
          const block = editor?.Blocks.get(b.id);
          if (!editor || !block) return;
          e.dataTransfer.setData("text/plain", b.label);
          editor.Blocks.startDrag(block, e.nativeEvent);
        }}
        onDragEnd={() => editor?.Blocks.endDrag()}
        className="cursor-grab rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 shadow-sm hover:border-indigo-400 hover:text-indigo-700 disabled:cursor-wait disabled:text-zinc-400"
      >
        {b.label}
      </button>
    ));
  const snippetBlocks = blocks.filter((b) => b.id.startsWith("snippet:"));
  return (
    <div className="space-y-3" data-testid="visual-editor">
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Blocks">
        <span className="mr-1 text-xs font-medium text-zinc-500">Add</span>
        {palette(BASE_BLOCKS)}
        {snippetBlocks.length > 0 && (
          <span className="ml-2 mr-1 text-xs font-medium text-zinc-500" id="snippet-blocks">
            Snippets
          </span>
        )}
        {palette(snippetBlocks)}
        <span className="ml-auto flex items-center gap-1">
          <Button size="sm" variant="ghost" disabled={!editor} onClick={() => editor?.UndoManager.undo()}>
            Undo
          </Button>
          <Button size="sm" variant="ghost" disabled={!editor} onClick={() => editor?.UndoManager.redo()}>
            Redo
          </Button>
          <span className="flex rounded-md border border-zinc-300 text-xs" role="group" aria-label="Canvas width">
            {(["Desktop", "Mobile"] as const).map((d) => (
              <button
                key={d}
                type="button"
                aria-pressed={device === d}
                onClick={() => {
                  setDevice(d);
                  editor?.setDevice(d);
                }}
                className={`px-2.5 py-1 first:rounded-l-md last:rounded-r-md ${device === d ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-50"}`}
              >
                {d}
              </button>
            ))}
          </span>
        </span>
      </div>
      <p className="text-xs text-zinc-500">
        Click a block to add it after the selection, or drag it onto the mail. Double-click text to edit it; Liquid like{" "}
        <code className="font-mono">{"{{ user.data.first_name }}"}</code> is kept as typed.
      </p>
      {failed && <ErrorBanner message={`The visual editor could not start: ${failed}`} />}
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_15rem]">
        <div className="relay-visual h-[36rem] overflow-hidden rounded-md border border-zinc-300 bg-zinc-100">
          <div ref={host} className="h-full" />
        </div>
        <VisualProperties editor={editor} onPickImage={setPicking} />
      </div>
      <DocumentPicker
        open={!!picking}
        onClose={() => setPicking(null)}
        onPick={(d) => {
          if (picking) {
            picking.set("src", d.url);
            picking.addAttributes({ src: d.url, ...(picking.getAttributes().alt ? {} : { alt: d.name }) });
          }
          setPicking(null);
        }}
      />
    </div>
  );
}
