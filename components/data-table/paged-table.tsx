"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Card, ErrorBanner, LoadingRows } from "@/components/ui/states";
import { type CursorPager, pagingProps } from "./cursor-pager";
import { type Columns, DataTable } from "./data-table";

/**
 * A log page's server-paged table in its card, under the query's loading and error states; `empty` stands
 * for a first page without rows. A click on a row, or on its Details button (the last column), opens its
 * `detail` below it (one at a time) or closes it.
 */
export function PagedTable<T extends { id: string }>({
  q,
  pager,
  what,
  empty,
  columns,
  caption,
  open,
  onOpen,
  detail,
  detailLabel,
}: {
  q: UseQueryResult<{ data: T[]; next_cursor: string | null }>;
  pager: CursorPager;
  /** Said while loading: "Loading {what}". */
  what: string;
  empty: ReactNode;
  columns: Columns<T>;
  caption: string;
  /** The id of the row whose detail is open. */
  open: string | null;
  onOpen: (id: string | null) => void;
  detail: (row: T) => ReactNode;
  /** The Details button's accessible name, when "Details" alone would not say which row. */
  detailLabel?: (row: T) => string;
}) {
  const withDetails = useMemo<Columns<T>>(
    () => [
      ...columns,
      {
        id: "open",
        header: () => <span className="sr-only">Details</span>,
        cell: ({ row }) => (
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={open === row.original.id}
            aria-label={detailLabel?.(row.original)}
            onClick={(e) => {
              e.stopPropagation();
              onOpen(open === row.original.id ? null : row.original.id);
            }}
          >
            {open === row.original.id ? "Hide" : "Details"}
          </Button>
        ),
      },
    ],
    [columns, open, onOpen, detailLabel],
  );
  if (q.isPending) return <LoadingRows label={`Loading ${what}`} />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  if (q.data.data.length === 0 && pager.page === 1) return empty;
  return (
    <Card className="overflow-hidden">
      <DataTable
        rows={q.data.data}
        columns={withDetails}
        rowKey={(r) => r.id}
        caption={caption}
        {...pagingProps(pager, q)}
        fetching={q.isFetching && q.isPlaceholderData}
        onRowClick={(r) => onOpen(open === r.id ? null : r.id)}
        expanded={(r) => (open === r.id ? detail(r) : null)}
      />
    </Card>
  );
}
