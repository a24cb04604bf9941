"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch, type ApiError } from "@/components/console/api";

/** The console's admin API call, addressed by project. */
export function adminFetch<T = any>(projectId: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return apiFetch<T>(adminPath(projectId, path), init);
}

/** A react-query GET of the admin API that the subscription cards reload after they write. */
export function useAdminGet<T>(projectId: string, path: string | null) {
  const q = useQuery({ queryKey: ["admin", projectId, path], queryFn: () => adminFetch<T>(projectId, path!), enabled: path !== null });
  return {
    data: q.data,
    error: (q.error as ApiError | null) ?? undefined,
    loading: q.isLoading,
    reload: async () => {
      await q.refetch();
    },
  };
}
