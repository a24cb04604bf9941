"use client";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { MyProject } from "@/lib/projects/schemas";

/** A popover of the admin's projects grouped by org; Escape or a click outside closes it. */
export function ProjectSwitcher({ projects, currentId }: { projects: MyProject[]; currentId?: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const current = projects.find((p) => p.id === currentId);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    const onClick = (e: MouseEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);
  const orgs = [...new Set(projects.map((p) => p.org_name))];
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label="Switch project"
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-left shadow-sm hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
      >
        <span className="min-w-0">
          <span className="block truncate text-[11px] uppercase tracking-wide text-zinc-400">
            {current?.org_name ?? "Project"}
          </span>
          <span className="block truncate text-sm font-medium text-zinc-900">
            {current?.name ?? "Choose a project"}
          </span>
        </span>
        <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-zinc-400" fill="currentColor">
          <path d="M10 3l4 5H6l4-5zm0 14l-4-5h8l-4 5z" />
        </svg>
      </button>
      {open && (
        <div className="absolute left-0 right-0 z-20 mt-1 max-h-80 overflow-auto rounded-lg border border-zinc-200 bg-white py-1 shadow-lg">
          {orgs.map((org) => (
            <div key={org}>
              <p className="px-3 pb-1 pt-2 text-[11px] font-medium uppercase tracking-wide text-zinc-400">{org}</p>
              {projects
                .filter((p) => p.org_name === org)
                .map((p) => (
                  <Link
                    key={p.id}
                    href={`/projects/${p.id}`}
                    onClick={() => setOpen(false)}
                    aria-current={p.id === currentId ? "page" : undefined}
                    className={`flex items-center justify-between px-3 py-1.5 text-sm hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none ${p.id === currentId ? "font-medium text-indigo-700" : "text-zinc-700"}`}
                  >
                    <span className="truncate">{p.name}</span>
                    <span className="text-xs text-zinc-400">{p.role}</span>
                  </Link>
                ))}
            </div>
          ))}
          <div className="mt-1 border-t border-zinc-100 pt-1">
            <Link
              href="/projects"
              onClick={() => setOpen(false)}
              className="block px-3 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none"
            >
              All projects…
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
