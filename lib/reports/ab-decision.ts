import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { type TestState, UNDECIDED } from "./looks";

type Owner = { ownerKind: "journey" | "broadcast"; ownerId: string; stepKey?: string };

export interface Decision extends TestState {
  decided_at: string | null;
  /** When the next look is due (a look's size reached, its settling time running); null: none scheduled. */
  look_at: string | null;
  /** `look_at` has come. */
  look_due: boolean;
}

interface Row {
  looks: number;
  winner: number | null;
  chance: number | null;
  decided_at: string | null;
  look_at: string | null;
  look_due: boolean;
}

const COLUMNS = sql`looks, winner, chance, decided_at, look_at, coalesce(look_at <= now(), false) as look_due`;

const toDecision = (r: Row | undefined): Decision =>
  r ? { ...r, decided: r.decided_at !== null } : { ...UNDECIDED, decided_at: null, look_at: null, look_due: false };

/** A test's decision row (ab_decisions), or the undecided state before its first look. */
export async function readDecision(ctx: ProjectContext, o: Owner): Promise<Decision> {
  const [row] = await queryRows<Row>(
    ctx.db,
    sql`select ${COLUMNS} from ab_decisions where project_id = ${ctx.projectId}::uuid
      and owner_kind = ${o.ownerKind} and owner_id = ${o.ownerId}::uuid and step_key = ${o.stepKey ?? ""}`,
  );
  return toDecision(row);
}

/**
 * Records a look: only over fewer looks and while undecided, so two takers of one look write once and a
 * decided test never changes (its winner never flips). Answers the row as it stands after.
 */
export async function recordLook(
  ctx: ProjectContext,
  { owner: o, next }: { owner: Owner; next: TestState },
): Promise<Decision> {
  const [row] = await queryRows<Row>(
    ctx.db,
    sql`
    insert into ab_decisions as d (project_id, owner_kind, owner_id, step_key, looks, winner, chance, decided_at)
    values (${ctx.projectId}::uuid, ${o.ownerKind}, ${o.ownerId}::uuid, ${o.stepKey ?? ""}, ${next.looks},
      ${next.winner}, ${next.chance}, case when ${next.decided} then now() end)
    on conflict (project_id, owner_kind, owner_id, step_key) do update
      set looks = excluded.looks, winner = excluded.winner, chance = excluded.chance,
        decided_at = excluded.decided_at, look_at = null, updated_at = now()
      where d.looks < excluded.looks and d.decided_at is null
    returning ${COLUMNS}`,
  );
  return row ? toDecision(row) : readDecision(ctx, o);
}

/** Schedules the next look `settle` from now, unless one is scheduled or the test is over. */
export async function scheduleLook(
  ctx: ProjectContext,
  { owner: o, settle }: { owner: Owner; settle: string },
): Promise<Decision> {
  const [row] = await queryRows<Row>(
    ctx.db,
    sql`
    insert into ab_decisions as d (project_id, owner_kind, owner_id, step_key, look_at)
    values (${ctx.projectId}::uuid, ${o.ownerKind}, ${o.ownerId}::uuid, ${o.stepKey ?? ""}, now() + ${settle}::interval)
    on conflict (project_id, owner_kind, owner_id, step_key) do update
      set look_at = excluded.look_at, updated_at = now()
      where d.look_at is null and d.decided_at is null
    returning ${COLUMNS}`,
  );
  return row ? toDecision(row) : readDecision(ctx, o);
}
