"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";

export type SchemaProp = { path: string; types: string[] };
type EventSchema = { event_name: string; count: number; properties: SchemaProp[] };

/**
 * The discovered schema as the builders need it: event names for autocomplete and, per event, the
 * properties a condition can name (array-element paths like `items[]` cannot be addressed, so left out).
 */
export function useEventSchema(projectId: string) {
  const q = useQuery({
    queryKey: ["schema", projectId],
    queryFn: () => apiFetch<{ data: EventSchema[] }>(adminPath(projectId, "/schema")),
    staleTime: 30_000,
  });
  const events = q.data?.data ?? [];
  return {
    names: events.map((e) => e.event_name),
    propsOf: (name: string | undefined): SchemaProp[] =>
      events.find((e) => e.event_name === name)?.properties.filter((p) => p.path && !p.path.includes("[]")) ?? [],
    loading: q.isPending,
  };
}
