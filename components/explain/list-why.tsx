"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import { formatDateTime } from "@/components/ui/format";
import { Badge, ErrorBanner, LoadingRows } from "@/components/ui/states";
import type { ListExplanation } from "@/components/console/api-types";
import { RuleTree } from "./rule-tree";

function by(actor: Record<string, unknown> | null) {
  if (!actor) return "";
  if (actor.kind === "admin") return ` by ${actor.email}`;
  if (actor.kind === "api_key") return " by an API key";
  return "";
}

/** Why a user is or is not in a list: what is stored, the latest change and its cause, and the rules evaluated now. */
export function ListWhy({ projectId, listId, userId }: { projectId: string; listId: string; userId: string }) {
  const q = useQuery({
    queryKey: ["list-explain", projectId, listId, userId],
    queryFn: () =>
      apiFetch<ListExplanation>(adminPath(projectId, `/lists/${listId}/explain?user_id=${encodeURIComponent(userId)}`)),
  });
  if (q.isPending) return <LoadingRows rows={3} label="Evaluating" />;
  if (q.isError) return <ErrorBanner message={q.error.message} />;
  const x = q.data;
  const c = x.last_change;
  return (
    <section className="space-y-3" aria-label={`Why for ${x.list.name}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={x.member ? "green" : "zinc"}>{x.member ? "member" : "not a member"}</Badge>
        {x.matches !== null && (
          <Badge tone={x.matches ? "green" : "red"}>{x.matches ? "rules match now" : "rules do not match now"}</Badge>
        )}
        {x.member_since && <span className="text-zinc-500">since {formatDateTime(x.member_since)}</span>}
      </div>
      {c ? (
        <p className="text-sm text-zinc-600">
          Last {c.change === "added" ? "added" : "removed"} {formatDateTime(c.at)}
          {c.cause === "event" && c.event_id ? (
            <>
              {" "}
              because of{" "}
              <Link
                className="font-mono text-indigo-700 hover:underline"
                href={`/projects/${projectId}/events?trace=${c.event_id}`}
              >
                {c.event_name ?? "an event"}
              </Link>
            </>
          ) : c.cause === "rebuild" ? (
            " when the list was re-evaluated"
          ) : (
            ` by hand${by(c.by)}`
          )}
          .
        </p>
      ) : (
        <p className="text-sm text-zinc-500">No membership change recorded for this user.</p>
      )}
      {x.rules && (
        <div className="rounded-lg border border-zinc-200 bg-zinc-50/60 p-3">
          <RuleTree node={x.rules} />
        </div>
      )}
    </section>
  );
}
