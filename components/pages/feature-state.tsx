"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorBanner, LoadingRows } from "@/components/ui/states";

/**
 * Loading and error states for a page's main query; renders `children` with the data. `skeleton` is the
 * page's own placeholder, the size of its content, so nothing below moves when the data arrives.
 */
export function QueryState<T>({
  q,
  what,
  children,
  skeleton,
}: {
  q: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
  skeleton?: ReactNode;
}) {
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
