import { sql } from "drizzle-orm";
import { queryRows, uuidArray } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";

/** How the console names a record: its first identifier (`source:external_id`), else its e-mail, else its id. */
export type RecordLabel = { kind: "user" | "organization"; id: string; label: string };

/**
 * Labels for users or organizations, one key probe per id (identifiers by the record's index, the row by
 * its primary key). Ids of another project or of erased records get no label.
 */
export async function recordLabels(
  ctx: ProjectContext,
  { kind, ids }: { kind: "user" | "organization"; ids: string[] },
): Promise<Map<string, RecordLabel>> {
  const out = new Map<string, RecordLabel>();
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return out;
  const [table, idents, col] =
    kind === "user"
      ? [sql`users`, sql`user_identifiers`, sql`user_id`]
      : [sql`organizations`, sql`organization_identifiers`, sql`organization_id`];
  const email = kind === "user" ? sql`r.email` : sql`null::text`;
  const rows = await queryRows<{ id: string; ident: string | null; email: string | null }>(
    ctx.db,
    sql`
    select k.id, r.email,
      (select i.source || ':' || i.external_id from ${idents} i where i.project_id = ${ctx.projectId}::uuid and i.${col} = k.id
        order by i.source = 'default' desc, i.created_at, i.external_id limit 1) as ident
    from unnest(${uuidArray(unique)}) as k(id)
    cross join lateral (select ${email} as email from ${table} r where r.project_id = ${ctx.projectId}::uuid and r.id = k.id offset 0) r`,
  );
  for (const r of rows) {
    const ident = r.ident?.startsWith("default:") ? r.ident.slice("default:".length) : r.ident;
    out.set(r.id, { kind, id: r.id, label: ident ?? r.email ?? r.id });
  }
  return out;
}
