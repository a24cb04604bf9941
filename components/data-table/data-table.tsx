"use client";
import { tableFeatures, useTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import { Fragment, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/components/ui/format";
import { tableClass, tdClass, thClass } from "@/components/ui/states";

const features = tableFeatures({});
export type Columns<T extends RowData> = ColumnDef<typeof features, T>[];

/** A log's first column: when each row happened (`at` picks its ISO time), in the viewer's time zone. */
export function timeColumn<T extends RowData>(at: (row: T) => string): Columns<T>[number] {
  return {
    id: "at",
    header: "Time",
    cell: ({ row }) => <span className="text-zinc-600">{formatDateTime(at(row.original))}</span>,
  };
}

/**
 * A table whose rows come from the server a page at a time (sorted and paged there): TanStack Table
 * renders headers and cells; Previous/Next move the server cursor. `expanded` renders a detail row.
 */
export function DataTable<T extends RowData>({
  rows,
  columns,
  rowKey,
  caption,
  page,
  nextCursor,
  onNext,
  onPrev,
  expanded,
  onRowClick,
  fetching,
}: {
  rows: T[];
  columns: Columns<T>;
  rowKey: (row: T) => string;
  caption: string;
  page: number;
  nextCursor: string | null;
  onNext: (cursor: string) => void;
  onPrev: () => void;
  expanded?: (row: T) => ReactNode | null;
  onRowClick?: (row: T) => void;
  fetching?: boolean;
}) {
  const table = useTable<typeof features, T>({ features, columns, data: rows, getRowId: (r: T) => rowKey(r) });
  const width = table.getAllLeafColumns().length;
  return (
    <div>
      <div className="overflow-x-auto">
        <table className={tableClass} aria-busy={fetching || undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-zinc-50">
            {table.getHeaderGroups().map((g) => (
              <tr key={g.id}>
                {g.headers.map((h) => (
                  <th key={h.id} scope="col" className={thClass}>
                    {h.isPlaceholder ? null : <table.FlexRender header={h} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {table.getRowModel().rows.map((row) => {
              const detail = expanded?.(row.original);
              return (
                <Fragment key={row.id}>
                  <tr
                    className={onRowClick ? "cursor-pointer hover:bg-zinc-50" : undefined}
                    onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                  >
                    {row.getAllCells().map((c) => (
                      <td key={c.id} className={`${tdClass} whitespace-nowrap`}>
                        <table.FlexRender cell={c} />
                      </td>
                    ))}
                  </tr>
                  {detail && (
                    <tr className="bg-zinc-50/60">
                      <td colSpan={width} className="px-4 py-3">
                        {detail}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between border-t border-zinc-100 px-4 py-2.5 text-xs text-zinc-500">
        <span>Page {page}</span>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={page <= 1 || fetching} onClick={onPrev}>
            Previous
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!nextCursor || fetching}
            onClick={() => nextCursor && onNext(nextCursor)}
          >
            Next
          </Button>
        </div>
      </div>
    </div>
  );
}
