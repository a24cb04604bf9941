import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { getBroadcast } from "@/lib/broadcasts/get-broadcast";
import { readReport } from "./read-report";
import type { reportQuery } from "./schemas";

type Query = z.output<typeof reportQuery>;

/** A broadcast's report: its funnel and series. 404 when the project has no such broadcast. */
export async function broadcastReport(ctx: ProjectContext, input: { id: string } & Query) {
  await getBroadcast(ctx, input.id);
  return readReport(ctx, { scope: "broadcast", scopeId: input.id, since: input.since, until: input.until });
}
