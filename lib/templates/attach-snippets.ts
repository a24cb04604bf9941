import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import type { SnippetSet } from "./liquid";

interface Wants {
  project_id: string;
  snippet_versions: Record<string, string> | null;
  snippets?: SnippetSet;
}

const setKey = (projectId: string, versionIds: string[]) => `${projectId}:${versionIds.sort().join(",")}`;

/**
 * Gives each message of a render batch the snippets its `{% render %}` finds: a broadcast's the versions
 * it pinned at its start, every other message its project's current ones. One statement for the batch;
 * messages needing the same bodies share one set (and so one engine and its parsed partials).
 */
export async function attachSnippets(ctx: AppContext, { facts }: { facts: Wants[] }): Promise<void> {
  if (!facts.length) return;
  const current = [...new Set(facts.filter((f) => !f.snippet_versions).map((f) => f.project_id))];
  const pinned = [...new Set(facts.flatMap((f) => Object.values(f.snippet_versions ?? {})))];
  const rows = await queryRows<{ project_id: string; pinned: boolean; name: string; version_id: string; body: string }>(
    ctx.db,
    sql`select s.project_id, false as pinned, s.name, s.version_id, s.body from snippets s
        where s.project_id = any(${`{${current.join(",")}}`}::uuid[])
      union all
      select v.project_id, true, v.content->>'name', v.id, v.content->>'body' from authoring_versions v
        where v.id = any(${`{${pinned.join(",")}}`}::uuid[]) and v.kind = 'snippet'`,
  );
  const currentByProject = new Map<string, { name: string; version_id: string; body: string }[]>();
  const byVersion = new Map<string, { project_id: string; name: string; body: string }>();
  for (const r of rows) {
    if (r.pinned) byVersion.set(r.version_id, r);
    else {
      let list = currentByProject.get(r.project_id);
      if (!list) currentByProject.set(r.project_id, (list = []));
      list.push(r);
    }
  }
  const sets = new Map<string, SnippetSet>();
  const share = (key: string, entries: [string, string][]) => {
    let set = sets.get(key);
    if (!set) sets.set(key, (set = { key, bodies: new Map(entries) }));
    return set;
  };
  for (const f of facts) {
    if (f.snippet_versions) {
      const ids = Object.values(f.snippet_versions);
      const own = ids.map((id) => byVersion.get(id)).filter((v) => v && v.project_id === f.project_id);
      f.snippets = share(
        setKey(f.project_id, ids),
        own.map((v) => [v!.name, v!.body]),
      );
    } else {
      const list = currentByProject.get(f.project_id) ?? [];
      f.snippets = share(
        setKey(
          f.project_id,
          list.map((s) => s.version_id),
        ),
        list.map((s) => [s.name, s.body]),
      );
    }
  }
}
