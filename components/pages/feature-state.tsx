"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ApiError } from "@/components/console/api";
import { EmptyState, ErrorBanner, LoadingRows } from "@/components/ui/states";

/** The catch-all API route answers unknown endpoints with "No endpoint ...": the feature is not deployed. */
export function isMissingEndpoint(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404 && /^No endpoint/.test(err.message);
}

/** Loading, error and "not deployed" states for a page's main query; renders `children` with the data. */
export function QueryState<T>({ q, what, children }: { q: UseQueryResult<T>; what: string; children: (data: T) => ReactNode }) {
  if (q.isPending) return <LoadingRows label={`Loading ${what}`} />;
  if (q.isError) {
    if (isMissingEndpoint(q.error)) {
      return <EmptyState title={`${what[0]!.toUpperCase()}${what.slice(1)} are not available on this server yet`}>This page works once its admin API is deployed.</EmptyState>;
    }
    return <ErrorBanner message={q.error.message} />;
  }
  return <>{children(q.data)}</>;
}
