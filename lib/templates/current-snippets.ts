import { eq } from "drizzle-orm";
import { snippets } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Invalid } from "@/lib/http/errors";
import { snippetProblem } from "./snippet-graph";

/** The project's snippets by name, as they are now. */
export async function currentSnippets(ctx: ProjectContext): Promise<Map<string, string>> {
  const rows = await ctx.db
    .select({ name: snippets.name, body: snippets.body })
    .from(snippets)
    .where(eq(snippets.projectId, ctx.projectId));
  return new Map(rows.map((r) => [r.name, r.body]));
}

/** A 400 when the snippets these sources render are missing, nest too deep or form a cycle. */
export async function checkSnippetUse(ctx: ProjectContext, input: { sources: string[]; path: string }): Promise<void> {
  if (!input.sources.some((s) => /\{%-?\s*(render|include|layout|liquid)\b/.test(s))) return;
  const problem = snippetProblem(await currentSnippets(ctx), input.sources);
  if (problem)
    throw new Invalid(`The ${input.path} cannot be saved: ${problem}.`, {
      errors: [{ path: input.path, message: problem }],
    });
}
