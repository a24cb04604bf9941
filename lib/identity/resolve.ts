import { and, eq, exists, sql, type Column, type SQL } from "drizzle-orm";
import { queryRows, uuidArray } from "@/lib/db/sql";
import type { DbOrTx } from "@/db/client";
import { Conflict } from "@/lib/http/errors";
import type { Identifier } from "./schemas";
import { KINDS, type Kind } from "./tables";
import type { ProjectContext } from "@/lib/access/context";

export interface StoredIdentifier {
  source: string;
  external_id: string;
  metadata: Record<string, unknown> | null;
}

/** Which record to find: the kind, its identifiers, and where they are in the request body (for a 409). */
export interface ResolveInput {
  kind: Kind;
  identifier: Identifier[];
  path?: string;
}

/** Finds the one record the given identifiers name, or null. Identifiers naming two records are a 409. */
export async function resolveIdentifiers(ctx: ProjectContext, input: ResolveInput): Promise<string | null> {
  return (
    (await findOwner(ctx.db, input.kind, ctx.projectId, input.identifier, input.path ?? "identifier", null))
      ?.recordId ?? null
  );
}

/**
 * Like resolveIdentifiers, and key-share locks the record as a foreign key to it would: it cannot be
 * deleted until the caller's transaction ends, so a row the caller hangs on it is not left orphaned
 * (schedule assignments, which have no foreign key: db/migrations/0019_schedule_cascade_triggers.sql).
 */
export async function resolveAndHold(ctx: ProjectContext, input: ResolveInput): Promise<string | null> {
  const { kind, identifier, path = "identifier" } = input;
  return (await findOwner(ctx.db, kind, ctx.projectId, identifier, path, "key share"))?.recordId ?? null;
}

async function findOwner(
  tx: DbOrTx,
  kind: Kind,
  projectId: string,
  ids: Identifier[],
  path: string,
  lock: "key share" | null,
) {
  const { identifiers: t, idColumn, records } = KINDS[kind];
  const pairs = sql.join(
    ids.map((i) => sql`(${i.source}, ${i.external_id})`),
    sql`, `,
  );
  const query = tx
    .select({ source: t.source, externalId: t.externalId, recordId: idColumn })
    .from(t)
    .innerJoin(records, and(eq(records.projectId, t.projectId), eq(records.id, idColumn)))
    .where(and(eq(t.projectId, projectId), sql`(${t.source}, ${t.externalId}) in (${pairs})`));
  const rows = lock ? await query.for(lock, { of: records }) : await query;
  const recordIds = [...new Set(rows.map((r) => r.recordId))];
  if (recordIds.length > 1) {
    const owners = recordIds.map((id) => ({
      id,
      identifier: rows.filter((r) => r.recordId === id).map((r) => ({ source: r.source, external_id: r.externalId })),
    }));
    throw new Conflict(
      `The identifiers name ${recordIds.length} different ${KINDS[kind].label}s; nothing was written.`,
      {
        errors: [{ path, message: `resolves to ${recordIds.length} different ${KINDS[kind].label}s` }],
        extra: { records: owners },
      },
    );
  }
  if (!recordIds.length) return null;
  return { recordId: recordIds[0]! };
}

/** `EXISTS` filter for list endpoints: the record holds an identifier with this source and/or external id. */
export function hasIdentifier(
  ctx: ProjectContext,
  kind: Kind,
  recordId: SQL | Column,
  q: { source?: string; external_id?: string },
) {
  const { db, projectId } = ctx;
  const { identifiers: t, idColumn } = KINDS[kind];
  const where = [eq(t.projectId, projectId), eq(idColumn, recordId)];
  if (q.external_id !== undefined) where.push(eq(t.externalId, q.external_id));
  if (q.source !== undefined) where.push(eq(t.source, q.source));
  return exists(
    db
      .select({ one: sql`1` })
      .from(t)
      .where(and(...where)),
  );
}

/** A SQL expression giving a record's identifiers as a JSON array, ordered as listIdentifiers orders them. */
export function identifiersJson(kind: Kind, recordId: SQL, projectId: SQL) {
  const { identifiers: t, idColumn } = KINDS[kind];
  return sql<StoredIdentifier[]>`coalesce((
    select json_agg(json_build_object('source', ${t.source}, 'external_id', ${t.externalId}, 'metadata', ${t.metadata})
                    order by ${t.createdAt}, ${t.source} collate "C", ${t.externalId} collate "C")
    from ${t} where ${t.projectId} = ${projectId} and ${idColumn} = ${recordId}), '[]'::json)`;
}

/** The identifiers of each record, in the read endpoints' order (records without any are left out). */
export async function listIdentifiers(
  ctx: ProjectContext,
  input: { kind: Kind; recordIds: string[] },
): Promise<Map<string, StoredIdentifier[]>> {
  const { kind, recordIds } = input;
  const out = new Map<string, StoredIdentifier[]>();
  if (!recordIds.length) return out;
  // One (project, record) equality per id, which only the record index answers: `record = any(ids)`
  // was planned as a scan of the project's identifiers when the statistics were stale.
  const rows = await queryRows<{ id: string; identifiers: StoredIdentifier[] }>(
    ctx.db,
    sql`
    select k.id, ${identifiersJson(kind, sql`k.id`, sql`${ctx.projectId}::uuid`)} as identifiers
    from unnest(${uuidArray([...new Set(recordIds)])}) as k(id)`,
  );
  for (const r of rows) if (r.identifiers.length) out.set(r.id, r.identifiers);
  return out;
}
