import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { journeyEntries } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { findJourney } from "./get-journey";

export const listEntriesQuery = paginationQuery.extend({ user_id: z.uuid().optional() }).meta({ id: "ListJourneyEntriesQuery" });

/** Entries of a journey, newest first, optionally for one user. */
export async function listJourneyEntries(db: DbOrTx, projectId: string, journeyId: string, q: z.output<typeof listEntriesQuery>) {
  await findJourney(db, projectId, journeyId);
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await db
    .select()
    .from(journeyEntries)
    .where(
      and(
        eq(journeyEntries.projectId, projectId),
        eq(journeyEntries.journeyId, journeyId),
        q.user_id ? eq(journeyEntries.userId, q.user_id) : undefined,
        after ? sql`${journeyEntries.id} < ${after[0]}::uuid` : undefined,
      ),
    )
    .orderBy(desc(journeyEntries.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return {
    data: data.map((e) => ({
      id: e.id,
      entrance_id: e.entranceId,
      user_id: e.userId,
      event_id: e.eventId,
      context: e.context,
      sendable: e.sendable,
      entered_at: e.enteredAt.toISOString(),
      exited_at: e.exitedAt?.toISOString() ?? null,
    })),
    next_cursor,
  };
}
