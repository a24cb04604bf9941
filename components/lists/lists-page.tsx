"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import { useProject } from "@/components/console/project-context";
import { buttonClass } from "@/components/ui/button";
import { formatRelative } from "@/components/ui/format";
import { Badge, Card, EmptyState } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import { QueryPage } from "@/components/ui/query-state";
import { TagActions, Tags, useTagParam } from "@/components/ui/tag-filter";
import type { List } from "@/components/console/api-types";
import { memberCountLabel } from "@/components/lists/member-count";

/** Lists with their member counts; each opens its builder, members and history. */
export function ListsPage() {
  const project = useProject();
  const q = useQuery({
    queryKey: ["lists", project.id],
    queryFn: () => apiFetch<{ data: List[] }>(adminPath(project.id, "/lists?limit=500")),
    refetchInterval: 10_000,
  });
  const [tag, setTag] = useTagParam();
  const tagsOf = (l: List) => (l as List & { tags?: string[] }).tags ?? [];
  const tags = [...new Set(q.data?.data.flatMap(tagsOf))];
  const canEdit = roleAtLeast(project.role, "editor");
  const newList = canEdit ? (
    <Link href={`/projects/${project.id}/lists/new`} className={buttonClass()}>
      New list
    </Link>
  ) : undefined;
  return (
    <QueryPage
      title="Lists"
      description="Segments of users: dynamic lists follow their rules as events arrive; static lists are managed by hand."
      actions={<TagActions tags={tags} value={tag} onChange={setTag} action={newList} />}
      q={q}
      what="lists"
    >
      {(data) =>
        data.data.length === 0 ? (
          <EmptyState title="No lists yet" action={newList}>
            Build a dynamic list from events and user properties, or a static one you fill by hand or from a CSV.
          </EmptyState>
        ) : (
          <Card>
            <ul className="divide-y divide-zinc-100">
              {data.data
                .filter((l) => !tag || tagsOf(l).includes(tag))
                .map((l) => (
                  <li key={l.id}>
                    <Link
                      href={`/projects/${project.id}/lists/${l.id}`}
                      className="flex w-full flex-wrap items-center gap-3 px-5 py-3 text-left hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
                    >
                      <span className="min-w-0 flex-1 font-medium text-zinc-900">
                        {l.name}
                        <Tags tags={tagsOf(l)} />
                      </span>
                      <Badge tone={l.kind === "dynamic" ? "indigo" : "zinc"}>{l.kind}</Badge>
                      {l.windowed && <Badge tone="amber">time window</Badge>}
                      <span className="w-28 text-right text-sm text-zinc-600">
                        {memberCountLabel(l)} member{l.member_count === 1 && !l.member_count_capped ? "" : "s"}
                      </span>
                      <span className="w-28 text-right text-xs text-zinc-400">{formatRelative(l.updated_at)}</span>
                    </Link>
                  </li>
                ))}
            </ul>
          </Card>
        )
      }
    </QueryPage>
  );
}
