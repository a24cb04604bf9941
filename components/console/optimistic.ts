"use client";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

/**
 * A mutation that shows its result before the server answers: `apply` rewrites every cached query under
 * `queryKey` at once (polls in flight are cancelled so they cannot overwrite it), a refusal puts every one
 * of them back as it was, and either way the queries are refetched so the page ends on the server's truth.
 * The caller shows `error` (the server's reason) beside the rolled-back value.
 */
export function useOptimisticMutation<TVars, TData = unknown>({
  queryKey,
  mutationFn,
  apply,
  alsoInvalidate = [],
}: {
  queryKey: QueryKey;
  mutationFn: (vars: TVars) => Promise<TData>;
  apply: (old: unknown, vars: TVars) => unknown;
  alsoInvalidate?: QueryKey[];
}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onMutate: async (vars: TVars) => {
      await qc.cancelQueries({ queryKey });
      const snapshot = qc.getQueriesData({ queryKey });
      qc.setQueriesData({ queryKey }, (old: unknown) => (old === undefined ? old : apply(old, vars)));
      return { snapshot };
    },
    onError: (_err, _vars, ctx) => {
      for (const [key, data] of ctx?.snapshot ?? []) qc.setQueryData(key, data);
    },
    onSettled: () => Promise.all([queryKey, ...alsoInvalidate].map((k) => qc.invalidateQueries({ queryKey: k }))),
  });
}

type Row = { [k: string]: unknown };

/**
 * Rewrites the rows matching `match` in the cached shapes the console uses: a page (`{data: [...]}`),
 * infinite pages (`{pages: [{data}]}`), or a profile's `schedules` array. Anything else is returned as is.
 */
export function patchRows<T extends Row>(old: unknown, match: (row: T) => boolean, patch: (row: T) => T): unknown {
  if (!old || typeof old !== "object") return old;
  const o = old as Row;
  const rows = (xs: unknown) => (Array.isArray(xs) ? xs.map((r) => (match(r as T) ? patch(r as T) : r)) : xs);
  if (Array.isArray(o.pages)) return { ...o, pages: o.pages.map((p) => patchRows(p, match, patch)) };
  const out: Row = { ...o };
  if ("data" in o) out.data = rows(o.data);
  if ("schedules" in o) out.schedules = rows(o.schedules);
  return out;
}
