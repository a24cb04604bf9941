"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { adminPath, apiFetch } from "@/components/console/api";
import { RowAction } from "@/components/ui/button";
import { Badge, ErrorBanner, LoadingRows } from "@/components/ui/states";
import type { Journey, List, Page, UserDetail } from "@/components/console/api-types";
import { JourneyWhy } from "./journey-why";
import { ListWhy } from "./list-why";

type Item = { kind: "list" | "journey"; id: string; name: string; state: string; on: boolean };

/**
 * The project's lists and journeys for one user: member or not, entered or not, each with a "why?" that
 * shows the decision evaluated now (the rule tree, conditions, re-entry).
 */
export function ListsJourneysPanel({ projectId, user }: { projectId: string; user: UserDetail }) {
  const [open, setOpen] = useState<string | null>(null);
  const lists = useQuery({
    queryKey: ["lists", projectId, "panel"],
    queryFn: () => apiFetch<Page<List>>(adminPath(projectId, "/lists?limit=100")),
  });
  const journeys = useQuery({
    queryKey: ["journeys", projectId, "panel"],
    queryFn: () => apiFetch<Page<Journey>>(adminPath(projectId, "/journeys?limit=100")),
  });
  if (lists.isPending || journeys.isPending) return <LoadingRows rows={3} label="Loading lists and journeys" />;
  if (lists.isError) return <ErrorBanner message={lists.error.message} />;
  if (journeys.isError) return <ErrorBanner message={journeys.error.message} />;
  const memberOf = new Set(user.lists.map((l) => l.id));
  const entered = new Map(user.journeys.map((j) => [j.id, j.active]));
  const items: Item[] = [
    ...lists.data.data.map((l) => ({
      kind: "list" as const,
      id: l.id,
      name: l.name,
      on: memberOf.has(l.id),
      state: memberOf.has(l.id) ? "member" : "not a member",
    })),
    ...journeys.data.data.map((j) => ({
      kind: "journey" as const,
      id: j.id,
      name: j.name,
      on: entered.has(j.id),
      state: entered.has(j.id) ? (entered.get(j.id) ? "active" : "exited") : "never entered",
    })),
  ];
  if (!items.length) return <p className="text-sm text-zinc-400">This project has no lists or journeys yet.</p>;
  return (
    <ul className="divide-y divide-zinc-100">
      {items.map((i) => {
        const key = `${i.kind}-${i.id}`;
        return (
          <li key={key} className="py-2">
            <div className="flex items-center gap-2">
              <span className="w-14 text-xs uppercase tracking-wide text-zinc-400">{i.kind}</span>
              <Link
                className="min-w-0 flex-1 truncate text-sm text-zinc-900 hover:underline"
                href={`/projects/${projectId}/${i.kind === "list" ? "lists" : "journeys"}/${i.id}`}
              >
                {i.name}
              </Link>
              <Badge tone={i.on ? "green" : "zinc"}>{i.state}</Badge>
              <RowAction
                aria-expanded={open === key}
                aria-label={`Why for ${i.name}?`}
                onClick={() => setOpen(open === key ? null : key)}
              >
                why?
              </RowAction>
            </div>
            {open === key && (
              <div className="mt-2 pl-16">
                {i.kind === "list" ? (
                  <ListWhy projectId={projectId} listId={i.id} userId={user.id} />
                ) : (
                  <JourneyWhy projectId={projectId} journeyId={i.id} userId={user.id} />
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
