import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { getTemplate } from "@/lib/templates/get-template";
import { readReport } from "./read-report";
import type { reportQuery } from "./schemas";

type Query = z.output<typeof reportQuery>;

/** A template's performance over every send of it (`since`/`until` bound the hours counted). */
export async function templateReport(ctx: ProjectContext, input: { id: string } & Query) {
  await getTemplate(ctx, input.id);
  return readReport(ctx, { scope: "template", scopeId: input.id, since: input.since, until: input.until });
}
