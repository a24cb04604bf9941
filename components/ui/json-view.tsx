import type { Identifier } from "@/components/console/api-types";

export type { Identifier };

/** Pretty JSON in a scrollable block; empty objects say so. */
export function JsonView({ value, empty = "No data" }: { value: unknown; empty?: string }) {
  const isEmpty =
    value === null || value === undefined || (typeof value === "object" && Object.keys(value as object).length === 0);
  if (isEmpty) return <p className="text-sm text-zinc-400">{empty}</p>;
  return (
    <pre className="max-h-96 overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-relaxed text-zinc-100">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

export function IdentifierChips({ identifier }: { identifier: Identifier[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {identifier.map((i) => (
        // A long identifier is cut with an ellipsis (full text on hover) instead of wrapping a letter a line.
        <span
          key={`${i.source}:${i.external_id}`}
          title={`${i.source}:${i.external_id}`}
          className="inline-flex max-w-[14rem] items-center rounded-md bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700"
        >
          {i.source !== "default" && <span className="mr-1 shrink-0 text-zinc-400">{i.source}:</span>}
          <span className="truncate">{i.external_id}</span>
        </span>
      ))}
    </span>
  );
}
