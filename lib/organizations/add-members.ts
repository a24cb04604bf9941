import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { RetryTransaction } from "@/lib/db/transaction";
import { recordSystemEvents, type SystemEvent } from "@/lib/events/record-system-events";
import { Conflict, NotFound, type FieldError } from "@/lib/http/errors";
import { lookupPairs } from "@/lib/identity/lookup-pairs";
import { mergeRows } from "@/lib/identity/merge";
import { pairKey } from "@/lib/identity/pair-key";
import type { Identifier } from "@/lib/identity/schemas";
import type { Kind } from "@/lib/identity/tables";
import type { MembershipInput } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export interface MembershipView {
  organization_id: string;
  user_id: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

type RawMember = {
  organization_id: string;
  user_id: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

/**
 * Adds members, or shallow-merges the membership's own data where the user already is one, for one
 * membership or a thousand in a constant number of statements: one identifier lookup per side, one
 * insert, one lock and one merge of the existing memberships, one insert of system events, one read.
 * Both ends must exist (adding a member never creates a user or an organization): the first item
 * naming a missing or ambiguous one rejects the whole call with its path, nothing written. Items naming
 * the same membership are merged in order. `path(i)` prefixes item i's error paths.
 */
export async function addMembers(
  ctx: ProjectContext,
  { memberships: inputs, path }: { memberships: MembershipInput[]; path: (i: number) => string },
) {
  const { db: tx, projectId } = ctx;
  const orgs = await lookupPairs(ctx, {
    kind: "organization",
    pairs: inputs.flatMap((m) => m.organization.identifier),
  });
  const users = await lookupPairs(ctx, { kind: "user", pairs: inputs.flatMap((m) => m.user.identifier) });

  const groups = new Map<
    string,
    { organizationId: string; userId: string; first: number; data?: Record<string, unknown> }
  >();
  const keys = inputs.map((input, i) => {
    const organizationId = ownerOf(
      orgs,
      "organization",
      input.organization.identifier,
      `${path(i)}organization.identifier`,
    );
    const userId = ownerOf(users, "user", input.user.identifier, `${path(i)}user.identifier`);
    const missing = [organizationId === null && "organization", userId === null && "user"].filter(
      (m): m is Kind => !!m,
    );
    if (missing.length) {
      const errors: FieldError[] = missing.map((m) => ({
        path: `${path(i)}${m}.identifier`,
        message: `no ${m} has these identifiers`,
      }));
      throw new NotFound(
        `No ${missing.join(" and no ")} has these identifiers${path(i) ? ` (${path(i).slice(0, -1)})` : ""}; nothing was created.`,
        { errors },
      );
    }
    const key = `${organizationId}/${userId}`;
    const g = groups.get(key) ?? { organizationId: organizationId!, userId: userId!, first: i };
    if (input.data) g.data = { ...g.data, ...input.data };
    groups.set(key, g);
    return key;
  });

  // Written in key order, so concurrent calls touching the same memberships queue instead of deadlocking.
  const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const input = JSON.stringify(sorted.map(([, g]) => ({ o: g.organizationId, u: g.userId, d: g.data ?? {} })));
  const inserted = await queryRows<RawMember>(
    tx,
    sql`
    insert into organization_members (project_id, organization_id, user_id, data)
    select ${projectId}::uuid, x.o, x.u, x.d from jsonb_to_recordset(${input}::jsonb) as x(o uuid, u uuid, d jsonb)
    on conflict do nothing
    returning organization_id, user_id, data, created_at::text, updated_at::text`,
  );
  const added = new Set(inserted.map((r) => `${r.organization_id}/${r.user_id}`));
  const existing = sorted.filter(([k]) => !added.has(k)).map(([, g]) => g);
  if (existing.length) {
    const pairs = JSON.stringify(existing.map((g) => ({ o: g.organizationId, u: g.userId })));
    // One key probe per pair, locked as probed, in the pairs' (key) order: a join was planned as a
    // scan of the project's memberships when the statistics were stale (lib/db/probe-plans.int.test.ts).
    const locked = await queryRows<{ one: number }>(
      tx,
      sql`
      select 1 as one from jsonb_to_recordset(${pairs}::jsonb) as x(o uuid, u uuid)
      cross join lateral (select 1 from organization_members m
        where m.project_id = ${projectId}::uuid and m.organization_id = x.o and m.user_id = x.u offset 0 for update) m`,
    );
    if (locked.length !== existing.length) throw new RetryTransaction(); // removed concurrently; start over
  }
  const changes = await mergeRows(ctx, {
    table: "organization_members",
    keys: ["organization_id", "user_id"],
    columns: [],
    rows: existing.map((g) => ({ key: [g.organizationId, g.userId], data: g.data })),
  });
  const changedBy = new Map(existing.map((g, i) => [`${g.organizationId}/${g.userId}`, changes[i] ?? []]));
  const insertedBy = new Map(inserted.map((r) => [`${r.organization_id}/${r.user_id}`, r]));

  const events: SystemEvent[] = [];
  for (const [key, g] of [...groups.entries()].sort(([, a], [, b]) => a.first - b.first)) {
    const { organizationId, userId } = g;
    const row = insertedBy.get(key);
    if (row)
      events.push({
        name: "organization.user.added",
        userId,
        organizationId,
        data: { organization_id: organizationId, data: row.data },
      });
    else if (changedBy.get(key)?.length) {
      events.push({
        name: "organization.user.updated",
        userId,
        organizationId,
        data: { organization_id: organizationId, changed: changedBy.get(key) },
      });
    }
  }
  await recordSystemEvents(ctx, events);

  const all = JSON.stringify([...groups.values()].map((g) => ({ o: g.organizationId, u: g.userId })));
  const stored = await queryRows<RawMember>(
    tx,
    sql`
    select m.organization_id, m.user_id, m.data, m.created_at, m.updated_at
    from jsonb_to_recordset(${all}::jsonb) as x(o uuid, u uuid)
    cross join lateral (select * from organization_members m
      where m.project_id = ${projectId}::uuid and m.organization_id = x.o and m.user_id = x.u offset 0) m`,
  );
  const views = new Map(stored.map((r) => [`${r.organization_id}/${r.user_id}`, toView(r)]));
  const firstOf = new Set([...groups.values()].map((g) => g.first));
  return {
    memberships: keys.map((k) => views.get(k)!),
    /** Whether item i added its membership (only the first item naming a new one did). */
    created: keys.map((k, i) => added.has(k) && firstOf.has(i)),
  };
}

/** The record the identifiers name, null when none; identifiers naming two records are a 409. */
function ownerOf(owners: Map<string, string>, kind: Kind, ids: Identifier[], path: string): string | null {
  const named = [
    ...new Set(ids.map((p) => owners.get(pairKey(p.source, p.external_id))).filter((o) => o !== undefined)),
  ];
  if (named.length > 1) {
    throw new Conflict(`The identifiers at ${path} name ${named.length} different ${kind}s; nothing was written.`, {
      errors: [{ path, message: `resolves to ${named.length} different ${kind}s` }],
      extra: {
        records: named.map((id) => ({
          id,
          identifier: ids
            .filter((p) => owners.get(pairKey(p.source, p.external_id)) === id)
            .map(({ source, external_id }) => ({ source, external_id })),
        })),
      },
    });
  }
  return named[0] ?? null;
}

function toView(r: RawMember): MembershipView {
  return {
    organization_id: r.organization_id,
    user_id: r.user_id,
    data: r.data,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
