"use client";
import { useQuery } from "@tanstack/react-query";
import { adminPath, apiFetch } from "@/components/console/api";
import { Badge, Card } from "@/components/ui/states";

type Fanout = {
  id: string;
  kind: "user" | "organization";
  name: string;
  match: Record<string, unknown>;
  delivered: number;
  planned: number | null;
  state: "running" | "finished" | "refused";
  refusal: string | null;
  received_at: string;
};

/**
 * Recent `match` events and how many records each reached. A filter that matched nobody records no event,
 * so without this panel it would be invisible.
 */
export function FanoutsCard({ projectId, live }: { projectId: string; live: boolean }) {
  const q = useQuery({
    queryKey: ["fanouts", projectId],
    queryFn: () => apiFetch<{ data: Fanout[] }>(adminPath(projectId, "/events/fanouts?limit=10")),
    refetchInterval: live ? 5_000 : false,
  });
  if (!q.data?.data.length) return null;
  return (
    <Card className="mt-6 overflow-hidden">
      <h2 className="border-b border-zinc-100 px-4 py-3 text-sm font-semibold text-zinc-900">Match deliveries</h2>
      <ul aria-label="Match deliveries" className="divide-y divide-zinc-100">
        {q.data.data.map((f) => (
          <li key={f.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm">
            <span className="font-mono font-medium text-zinc-900">{f.name}</span>
            <code className="truncate rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600">
              {JSON.stringify(f.match)}
            </code>
            <span className="ml-auto flex items-center gap-2">
              {f.state === "refused" ? (
                <Badge tone="red">refused · over hourly quota</Badge>
              ) : f.state === "running" ? (
                <Badge tone="indigo">delivering · {f.delivered.toLocaleString()}</Badge>
              ) : f.delivered === 0 ? (
                <Badge tone="amber">matched no {f.kind}</Badge>
              ) : (
                <Badge tone="green">
                  {f.delivered.toLocaleString()} {f.kind}
                  {f.delivered === 1 ? "" : "s"}
                </Badge>
              )}
              <time dateTime={f.received_at} className="text-xs text-zinc-500">
                {new Date(f.received_at).toLocaleString()}
              </time>
            </span>
            {f.refusal && <p className="w-full text-xs text-red-700">{f.refusal}</p>}
          </li>
        ))}
      </ul>
    </Card>
  );
}
