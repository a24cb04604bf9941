"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { controlClass } from "./states";

/** The `?tag=` of the page's URL (so a filtered page can be linked), and a setter that keeps the rest. */
export function useTagParam(): [string | undefined, (tag: string | undefined) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const tag = params.get("tag") || undefined;
  const set = (next: string | undefined) => {
    const q = new URLSearchParams(params.toString());
    if (next) q.set("tag", next);
    else q.delete("tag");
    const s = q.toString();
    router.replace(s ? `${pathname}?${s}` : pathname);
  };
  return [tag, set];
}

/** `?tag=` for a list endpoint's URL ("" without a tag): the API filters, the page only asks. */
export const tagQuery = (tag: string | undefined, sep: "?" | "&" = "&") =>
  tag ? `${sep}tag=${encodeURIComponent(tag)}` : "";

/**
 * A list page's tag filter: the tags its records carry (and the one chosen, even when no record left
 * shows it), "All" to clear.
 */
export function TagFilter({
  tags,
  value,
  onChange,
}: {
  tags: string[];
  value: string | undefined;
  onChange: (tag: string | undefined) => void;
}) {
  const all = [...new Set([...(value ? [value] : []), ...tags])].sort((a, b) => a.localeCompare(b));
  if (!all.length) return null;
  return (
    <label className="flex items-center gap-2 text-sm text-zinc-600">
      Tag
      <select
        aria-label="Filter by tag"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || undefined)}
        className={`${controlClass} py-1`}
      >
        <option value="">All</option>
        {all.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A list page's header actions: its tag filter, then the page's own `action` (a New button). */
export function TagActions({ action, ...filter }: Parameters<typeof TagFilter>[0] & { action: ReactNode }) {
  return (
    <div className="flex items-center gap-3">
      <TagFilter {...filter} />
      {action}
    </div>
  );
}

/** A record's tags as small labels. */
export function Tags({ tags }: { tags: string[] | undefined }) {
  if (!tags?.length) return null;
  return (
    <span className="ml-2 inline-flex flex-wrap gap-1 align-middle">
      {tags.map((t) => (
        <span key={t} className="rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] font-normal text-zinc-600">
          {t}
        </span>
      ))}
    </span>
  );
}
