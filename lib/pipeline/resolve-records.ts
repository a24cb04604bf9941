import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { Organization, User } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import type { Identifier } from "@/lib/identity/schemas";
import { onOrganizationsCreated } from "@/lib/organizations/hooks";
import { onUsersCreated } from "@/lib/users/hooks";
import { RetryTransaction } from "@/lib/db/transaction";
import { queryRows } from "@/lib/db/sql";

const TABLES = {
  user: { records: "users", identifiers: "user_identifiers", idColumn: "user_id" },
  organization: { records: "organizations", identifiers: "organization_identifiers", idColumn: "organization_id" },
} as const;

const keyOf = (i: { source: string; external_id: string }) => `${i.source}\u0000${i.external_id}`;

/**
 * Resolves many identifier lists (one per event) to record ids in a few statements, with the upsert's
 * identity rules: any known pair names the record (the first one in list order wins when pairs name two
 * records: an event is never dropped), unknown pairs are attached to it, and lists naming nothing create
 * a record (lists in the batch that share a new pair share the new record), with `user.created`
 * (`organization.created`) and the creation hooks in this transaction. A concurrent creator of the same
 * pair makes the whole transaction retry, like the upsert does.
 */
export async function resolveOrCreateRecords(tx: DbOrTx, kind: "user" | "organization", projectId: string, lists: Identifier[][]): Promise<string[]> {
  const t = TABLES[kind];
  const pairs = new Map<string, Identifier>();
  for (const list of lists) for (const i of list) if (!pairs.has(keyOf(i))) pairs.set(keyOf(i), i);
  const found = await tx.execute<{ source: string; external_id: string; record_id: string }>(sql`
    select i.source, i.external_id, i.${sql.identifier(t.idColumn)} as record_id
    from ${sql.identifier(t.identifiers)} i
    join jsonb_to_recordset(${JSON.stringify([...pairs.values()].map((p) => ({ s: p.source, e: p.external_id })))}::jsonb) as x(s text, e text)
      on i.source = x.s and i.external_id = x.e
    where i.project_id = ${projectId}`);
  // Values are record ids, or `#k` for the k-th record this batch creates.
  const owner = new Map<string, string>(found.map((r) => [keyOf(r), r.record_id]));
  const pending: Identifier[][] = [];
  const attach: { pair: Identifier; owner: string }[] = [];
  const result = lists.map((list) => {
    let target = list.map((i) => owner.get(keyOf(i))).find((o) => o !== undefined);
    if (target === undefined) {
      target = `#${pending.length}`;
      pending.push([]);
    }
    for (const i of list) {
      if (owner.has(keyOf(i))) continue;
      owner.set(keyOf(i), target);
      if (target.startsWith("#")) pending[Number(target.slice(1))]!.push(i);
      else attach.push({ pair: i, owner: target });
    }
    return target;
  });
  if (!pending.length && !attach.length) return result;

  let created: (User | Organization)[] = [];
  if (pending.length) {
    created = (await queryRows<User | Organization>(tx, sql`
      insert into ${sql.identifier(t.records)} (project_id) select ${projectId}::uuid from generate_series(1, ${pending.length})
      returning *`));
  }
  const createdIds = created.map((r) => r.id);
  const realOwner = (o: string) => (o.startsWith("#") ? createdIds[Number(o.slice(1))]! : o);
  const rows = [
    ...pending.flatMap((list, k) => list.map((i) => ({ s: i.source, e: i.external_id, m: i.metadata ?? null, r: createdIds[k], n: true }))),
    ...attach.map(({ pair, owner: o }) => ({ s: pair.source, e: pair.external_id, m: pair.metadata ?? null, r: realOwner(o), n: false })),
  ].sort((a, b) => (a.s === b.s ? (a.e < b.e ? -1 : 1) : a.s < b.s ? -1 : 1));
  const inserted = await tx.execute<{ source: string; external_id: string }>(sql`
    insert into ${sql.identifier(t.identifiers)} (project_id, source, external_id, ${sql.identifier(t.idColumn)}, metadata)
    select ${projectId}::uuid, x.s, x.e, x.r, x.m from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(s text, e text, r uuid, m jsonb)
    on conflict do nothing
    returning source, external_id`);
  const got = new Set(inserted.map(keyOf));
  // A new record's pair taken meanwhile by a concurrent writer: start over and resolve to that record.
  if (rows.some((r) => r.n && !got.has(keyOf({ source: r.s, external_id: r.e })))) throw new RetryTransaction();

  if (created.length) {
    const mapped = created.map((row, k) => {
      const identifier = pending[k]!.map(({ source, external_id }) => ({ source, external_id }));
      return kind === "user"
        ? { name: "user.created" as const, userId: row.id, data: { identifier, email: null, phone: null, timezone: null, locale: null, data: {} } }
        : { name: "organization.created" as const, organizationId: row.id, data: { identifier, name: null, data: {} } };
    });
    await recordSystemEvents(tx, projectId, mapped);
    if (kind === "user") await onUsersCreated(tx, projectId, created.map(camelUser));
    else await onOrganizationsCreated(tx, projectId, created.map(camelOrganization));
  }
  return result.map(realOwner);
}

/* Raw rows come back snake_case; the hooks take the drizzle row types. */
type Raw = Record<string, unknown>;
function camelUser(r: unknown): User {
  const x = r as Raw;
  return {
    projectId: x.project_id as string, id: x.id as string, email: null, phone: null, timezone: null, locale: null,
    data: (x.data ?? {}) as Record<string, unknown>, createdAt: new Date(x.created_at as string), updatedAt: new Date(x.updated_at as string),
  };
}
function camelOrganization(r: unknown): Organization {
  const x = r as Raw;
  return {
    projectId: x.project_id as string, id: x.id as string, name: null,
    data: (x.data ?? {}) as Record<string, unknown>, createdAt: new Date(x.created_at as string), updatedAt: new Date(x.updated_at as string),
  };
}
