"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { adminPath, apiFetch } from "@/components/console/api";
import type { Page } from "@/components/console/api-types";
import { useProject } from "@/components/console/project-context";
import type { Template } from "@/components/messages/types";
import { buttonClass } from "@/components/ui/button";
import { formatRelative } from "@/components/ui/format";
import { Badge, Card, EmptyState } from "@/components/ui/states";
import { roleAtLeast } from "@/lib/access/roles";
import { QueryPage } from "@/components/ui/query-state";
import { TagFilter, Tags, useTagParam } from "@/components/ui/tag-filter";

/** Message templates: each opens its editor, preview and test send, or its performance. */
export function TemplatesPage() {
  const project = useProject();
  const q = useQuery({
    queryKey: ["templates", project.id],
    queryFn: () => apiFetch<Page<Template>>(adminPath(project.id, "/templates?limit=500")),
  });
  const [tag, setTag] = useTagParam();
  const tags = [...new Set(q.data?.data.flatMap((t) => t.tags ?? []))];
  const canEdit = roleAtLeast(project.role, "editor");
  const newTemplate = canEdit ? (
    <Link href={`/projects/${project.id}/templates/new`} className={buttonClass()}>
      New template
    </Link>
  ) : undefined;
  const add = newTemplate;
  const actions = (
    <div className="flex items-center gap-3">
      <TagFilter tags={tags} value={tag} onChange={setTag} />
      {newTemplate}
    </div>
  );
  return (
    <QueryPage
      title="Templates"
      description="E-mail and SMS written in Liquid: {{ user.email }}, {{ journey.… }}, {{ unsubscribe_url }}. Journeys and broadcasts send them; each user gets the variant of their locale."
      actions={actions}
      q={q}
      what="templates"
    >
      {(data) =>
        data.data.length === 0 ? (
          <EmptyState title="No templates yet" action={add}>
            Write a message once, with a variant per locale, and send it from a journey step or a broadcast.
          </EmptyState>
        ) : (
          <Card>
            <ul className="divide-y divide-zinc-100" aria-label="Templates">
              {data.data
                .filter((t) => !tag || t.tags?.includes(tag))
                .map((t) => (
                  <li key={t.id} className="flex items-center hover:bg-zinc-50">
                    <Link
                      href={`/projects/${project.id}/templates/${t.id}`}
                      className="flex min-w-0 flex-1 flex-wrap items-center gap-3 py-3 pl-5 pr-2 text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
                    >
                      <span className="min-w-0 flex-1">
                        <span className="block font-medium text-zinc-900">
                          {t.name}
                          <Tags tags={t.tags} />
                        </span>
                        {t.subject && <span className="block truncate text-xs text-zinc-500">{t.subject}</span>}
                      </span>
                      <Badge tone={t.channel === "email" ? "indigo" : "green"}>
                        {t.channel === "email" ? "E-mail" : "SMS"}
                      </Badge>
                      {t.transactional ? (
                        <Badge tone="amber">transactional</Badge>
                      ) : (
                        t.subscription_group && <Badge>{t.subscription_group.name}</Badge>
                      )}
                      {Object.keys(t.locales ?? {}).map((l) => (
                        <Badge key={l}>{l}</Badge>
                      ))}
                      <span className="w-28 text-right text-xs text-zinc-400">{formatRelative(t.updated_at)}</span>
                    </Link>
                    <Link
                      href={`/projects/${project.id}/templates/${t.id}/report`}
                      aria-label={`Performance of ${t.name}`}
                      className="mr-3 shrink-0 rounded-md px-2.5 py-1 text-xs font-medium text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                    >
                      Performance
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
