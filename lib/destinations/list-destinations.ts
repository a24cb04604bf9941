import { sql } from "drizzle-orm";
import { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { decodeCursor, page } from "@/lib/http/pagination";
import type { listDestinationsQuery } from "./schemas";
import { destinationViews } from "./view";

/** The project's destinations, newest first, each with its health. */
export async function listDestinations(ctx: ProjectContext, q: z.output<typeof listDestinationsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await destinationViews(ctx, {
    where: after ? sql`d.id < ${after[0]}::uuid` : sql`true`,
    limit: q.limit + 1,
  });
  return page(rows, q.limit, (r) => [r.id]);
}
