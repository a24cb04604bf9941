"use client";
import type { UseInfiniteQueryResult, UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorBanner, LoadingRows, PageHeader } from "@/components/ui/states";

/**
 * Loading and error states for a page's main query; renders `children` with the data. `skeleton` is the
 * page's own placeholder, the size of its content, so nothing below moves when the data arrives.
 */
type QueryStateProps<T> = {
  q: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
  skeleton?: ReactNode;
};

export function QueryState<T>({ q, what, children, skeleton }: QueryStateProps<T>) {
  if (q.isPending)
    return skeleton ? (
      <div role="status" aria-label={`Loading ${what}`}>
        {skeleton}
      </div>
    ) : (
      <LoadingRows label={`Loading ${what}`} />
    );
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  return <>{children(q.data)}</>;
}

/** A page that is its header over its main query: `PageHeader`, then `QueryState` with the rest of the props. */
export function QueryPage<T>({
  title,
  description,
  actions,
  ...state
}: QueryStateProps<T> & { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <QueryState {...state} />
    </>
  );
}

/**
 * A query's loading rows while it is pending and its error once it failed, for a page that shows what the
 * query has itself (unlike `QueryState`, whatever data a failed refetch left stays on the page).
 */
export function QueryStatus({
  q,
  what,
  rows,
}: {
  q: UseQueryResult<unknown> | UseInfiniteQueryResult<unknown>;
  what: string;
  rows?: number;
}) {
  return (
    <>
      {q.isPending && <LoadingRows rows={rows} label={`Loading ${what}`} />}
      {q.isError && <ErrorBanner message={q.error.message} />}
    </>
  );
}
